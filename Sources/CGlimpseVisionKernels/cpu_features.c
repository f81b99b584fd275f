#include "cpu_features.h"

#ifdef GLIMPSE_X86_KERNELS
// The answer to `test`, computed on the first call (a benign race: every thread computes the same value).
#define CACHED_CPU_TEST(test)                \
    static int cached = -1;                  \
    if (cached < 0) {                        \
        __builtin_cpu_init();                \
        cached = (test) ? 1 : 0;             \
    }                                        \
    return cached;

int glimpse_cpu_has_popcnt(void) { CACHED_CPU_TEST(__builtin_cpu_supports("popcnt")) }

int glimpse_cpu_has_avx2(void) {
    CACHED_CPU_TEST(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
}

int glimpse_cpu_has_avx512f(void) { CACHED_CPU_TEST(__builtin_cpu_supports("avx512f")) }

int glimpse_cpu_has_avx512_popcnt(void) {
    CACHED_CPU_TEST(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vpopcntdq"))
}
#endif
