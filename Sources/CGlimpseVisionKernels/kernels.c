#include "CGlimpseVisionKernels.h"

// Each kernel body is written once as a macro and instantiated for the generic target and, on
// x86-64, for a popcnt-enabled target. The dispatcher picks one per process; on CPUs with
// AVX-512 VPOPCNTDQ the contiguous nearest-two scan uses a vector variant.

#define DIST4(q, r) \
    ((uint32_t)__builtin_popcountll((q)[0] ^ (r)[0]) + (uint32_t)__builtin_popcountll((q)[1] ^ (r)[1]) + \
     (uint32_t)__builtin_popcountll((q)[2] ^ (r)[2]) + (uint32_t)__builtin_popcountll((q)[3] ^ (r)[3]))

#define DEFINE_KERNELS(SUFFIX, ATTR)                                                                   \
    ATTR static uint32_t hamming256_##SUFFIX(const uint64_t *a, const uint64_t *b) {                  \
        return DIST4(a, b);                                                                            \
    }                                                                                                  \
    ATTR static void best2_##SUFFIX(const uint64_t *q, const uint64_t *refs, size_t count,            \
                                    int32_t *bi, uint32_t *bd, uint32_t *sd) {                         \
        const uint64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];                                     \
        uint32_t best = 257, second = 257;                                                             \
        int32_t index = -1;                                                                            \
        for (size_t i = 0; i < count; i++) {                                                           \
            const uint64_t *r = refs + 4 * i;                                                          \
            uint32_t d = (uint32_t)__builtin_popcountll(q0 ^ r[0]) +                                   \
                         (uint32_t)__builtin_popcountll(q1 ^ r[1]) +                                   \
                         (uint32_t)__builtin_popcountll(q2 ^ r[2]) +                                   \
                         (uint32_t)__builtin_popcountll(q3 ^ r[3]);                                    \
            if (d < second) {                                                                          \
                if (d < best) { second = best; best = d; index = (int32_t)i; }                         \
                else { second = d; }                                                                   \
            }                                                                                          \
        }                                                                                              \
        *bi = index; *bd = best; *sd = second;                                                         \
    }                                                                                                  \
    ATTR static void best2_indexed_##SUFFIX(const uint64_t *q, const uint64_t *refs,                  \
                                            const uint32_t *indices, size_t count,                     \
                                            int32_t *bi, uint32_t *bd, uint32_t *sd) {                 \
        const uint64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];                                     \
        uint32_t best = 257, second = 257;                                                             \
        int32_t index = -1;                                                                            \
        for (size_t i = 0; i < count; i++) {                                                           \
            const uint64_t *r = refs + 4 * (size_t)indices[i];                                         \
            uint32_t d = (uint32_t)__builtin_popcountll(q0 ^ r[0]) +                                   \
                         (uint32_t)__builtin_popcountll(q1 ^ r[1]) +                                   \
                         (uint32_t)__builtin_popcountll(q2 ^ r[2]) +                                   \
                         (uint32_t)__builtin_popcountll(q3 ^ r[3]);                                    \
            if (d < second) {                                                                          \
                if (d < best) { second = best; best = d; index = (int32_t)indices[i]; }                \
                else { second = d; }                                                                   \
            }                                                                                          \
        }                                                                                              \
        *bi = index; *bd = best; *sd = second;                                                         \
    }                                                                                                  \
    ATTR static void many_##SUFFIX(const uint64_t *q, const uint64_t *refs, size_t count,             \
                                   uint16_t *out) {                                                    \
        for (size_t i = 0; i < count; i++) out[i] = (uint16_t)DIST4(q, refs + 4 * i);                  \
    }

DEFINE_KERNELS(generic, )

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_POPCNT_VARIANT 1
DEFINE_KERNELS(popcnt, __attribute__((target("popcnt"))))

#include <immintrin.h>

// AVX-512 (VPOPCNTDQ) scan over contiguous descriptors: eight descriptors per step. Four
// vectors hold two descriptors each; two rounds of pairwise adds leave the eight distances in
// the lane order 0, 2, 4, 6, 1, 3, 5, 7.
__attribute__((target("avx512f,avx512vpopcntdq")))
static void best2_avx512(const uint64_t *q, const uint64_t *refs, size_t count,
                         int32_t *bi, uint32_t *bd, uint32_t *sd) {
    // Lane holding descriptor j of the block; visiting j in order keeps ties as in the scalar scan.
    static const int lane_of[8] = {0, 4, 1, 5, 2, 6, 3, 7};
    const __m512i qq = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)q));
    uint32_t best = 257, second = 257;
    int32_t index = -1;
    size_t i = 0;
    uint64_t lanes[8];
    for (; i + 8 <= count; i += 8) {
        const uint64_t *r = refs + 4 * i;
        __m512i p0 = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512((const void *)(r)), qq));
        __m512i p1 = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512((const void *)(r + 8)), qq));
        __m512i p2 = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512((const void *)(r + 16)), qq));
        __m512i p3 = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512((const void *)(r + 24)), qq));
        __m512i t01 = _mm512_add_epi64(_mm512_unpacklo_epi64(p0, p1), _mm512_unpackhi_epi64(p0, p1));
        __m512i t23 = _mm512_add_epi64(_mm512_unpacklo_epi64(p2, p3), _mm512_unpackhi_epi64(p2, p3));
        __m512i u01 = _mm512_add_epi64(t01, _mm512_shuffle_i64x2(t01, t01, _MM_SHUFFLE(2, 3, 0, 1)));
        __m512i u23 = _mm512_add_epi64(t23, _mm512_shuffle_i64x2(t23, t23, _MM_SHUFFLE(2, 3, 0, 1)));
        __m512i v = _mm512_mask_blend_epi64(0xCC, u01, u23);
        _mm512_storeu_si512((void *)lanes, v);
        for (int j = 0; j < 8; j++) {
            uint32_t d = (uint32_t)lanes[lane_of[j]];
            if (d < second) {
                if (d < best) { second = best; best = d; index = (int32_t)(i + (size_t)j); }
                else { second = d; }
            }
        }
    }
    for (; i < count; i++) {
        const uint64_t *r = refs + 4 * i;
        uint32_t d = (uint32_t)__builtin_popcountll(q[0] ^ r[0]) + (uint32_t)__builtin_popcountll(q[1] ^ r[1]) +
                     (uint32_t)__builtin_popcountll(q[2] ^ r[2]) + (uint32_t)__builtin_popcountll(q[3] ^ r[3]);
        if (d < second) {
            if (d < best) { second = best; best = d; index = (int32_t)i; }
            else { second = d; }
        }
    }
    *bi = index; *bd = best; *sd = second;
}

static int use_avx512(void) {
    static int cached = -1;  // benign race: every thread computes the same value
    if (cached < 0) {
        __builtin_cpu_init();
        cached = (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vpopcntdq")) ? 1 : 0;
    }
    return cached;
}

static int use_popcnt(void) {
    static int cached = -1;  // benign race: every thread computes the same value
    if (cached < 0) {
        __builtin_cpu_init();
        cached = __builtin_cpu_supports("popcnt") ? 1 : 0;
    }
    return cached;
}
#define DISPATCH(name, ...) (use_popcnt() ? name##_popcnt(__VA_ARGS__) : name##_generic(__VA_ARGS__))
#else
#define DISPATCH(name, ...) (name##_generic(__VA_ARGS__))
#endif

uint32_t glimpse_hamming256(const uint64_t *a, const uint64_t *b) { return DISPATCH(hamming256, a, b); }

void glimpse_hamming_best2(const uint64_t *query, const uint64_t *refs, size_t count,
                           int32_t *best_index, uint32_t *best_distance, uint32_t *second_distance) {
#ifdef HAVE_POPCNT_VARIANT
    if (use_avx512()) {
        best2_avx512(query, refs, count, best_index, best_distance, second_distance);
        return;
    }
#endif
    DISPATCH(best2, query, refs, count, best_index, best_distance, second_distance);
}

void glimpse_hamming_best2_indexed(const uint64_t *query, const uint64_t *refs, const uint32_t *indices,
                                   size_t count, int32_t *best_index, uint32_t *best_distance,
                                   uint32_t *second_distance) {
    DISPATCH(best2_indexed, query, refs, indices, count, best_index, best_distance, second_distance);
}

void glimpse_hamming_many(const uint64_t *query, const uint64_t *refs, size_t count, uint16_t *out) {
    DISPATCH(many, query, refs, count, out);
}

int glimpse_hamming_uses_hardware_popcount(void) {
#ifdef HAVE_POPCNT_VARIANT
    return use_popcnt();
#else
    return 0;
#endif
}
