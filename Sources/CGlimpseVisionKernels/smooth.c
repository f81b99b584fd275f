#include "CGlimpseVisionKernels.h"
#include "cpu_features.h"

// The 9-tap binomial smoothing (1 8 28 56 70 56 28 8 1)/256 of a pyramid level, horizontal pass into
// 16 bits ((sum + 8) >> 4), vertical pass back to bytes ((sum + 2048) >> 12), edges clamped. Written as
// plain loops the compiler vectorises, compiled for the generic target and, on x86-64, for AVX2, the
// variant chosen once per process.

#define SMOOTH_BODY                                                                                     \
    for (int y = 0; y < height; y++) {                                                                 \
        const uint8_t *s = src + (size_t)y * (size_t)width;                                            \
        uint16_t *d = mid + (size_t)y * (size_t)width;                                                 \
        for (int x = 0; x < width; x++) {                                                              \
            if (x == 4 && width > 8) {                                                                  \
                for (; x < width - 4; x++) {                                                            \
                    const uint32_t v = (uint32_t)s[x - 4] + s[x + 4] + 8u * ((uint32_t)s[x - 3] + s[x + 3]) + \
                                       28u * ((uint32_t)s[x - 2] + s[x + 2]) +                          \
                                       56u * ((uint32_t)s[x - 1] + s[x + 1]) + 70u * s[x];               \
                    d[x] = (uint16_t)((v + 8) >> 4);                                                    \
                }                                                                                       \
                if (x >= width) break;                                                                  \
            }                                                                                           \
            uint32_t v = 0;                                                                             \
            for (int k = 0; k < 9; k++) {                                                               \
                int i = x + k - 4;                                                                      \
                i = i < 0 ? 0 : (i > width - 1 ? width - 1 : i);                                        \
                v += (uint32_t)s[i] * taps[k];                                                          \
            }                                                                                           \
            d[x] = (uint16_t)((v + 8) >> 4);                                                            \
        }                                                                                               \
    }                                                                                                   \
    for (int y = 0; y < height; y++) {                                                                 \
        const uint16_t *r[9];                                                                           \
        for (int k = 0; k < 9; k++) {                                                                   \
            int i = y + k - 4;                                                                          \
            i = i < 0 ? 0 : (i > height - 1 ? height - 1 : i);                                          \
            r[k] = mid + (size_t)i * (size_t)width;                                                     \
        }                                                                                               \
        const uint16_t *r0 = r[0], *r1 = r[1], *r2 = r[2], *r3 = r[3], *r4 = r[4];                      \
        const uint16_t *r5 = r[5], *r6 = r[6], *r7 = r[7], *r8 = r[8];                                  \
        uint8_t *o = dst + (size_t)y * (size_t)width;                                                   \
        for (int x = 0; x < width; x++) {                                                              \
            const uint32_t v = (uint32_t)r0[x] + r8[x] + 8u * ((uint32_t)r1[x] + r7[x]) +               \
                               28u * ((uint32_t)r2[x] + r6[x]) + 56u * ((uint32_t)r3[x] + r5[x]) +      \
                               70u * r4[x];                                                             \
            o[x] = (uint8_t)((v + 2048) >> 12);                                                         \
        }                                                                                               \
    }

static const uint32_t taps[9] = {1, 8, 28, 56, 70, 56, 28, 8, 1};

static void smooth9_generic(const uint8_t *src, int width, int height, uint16_t *mid, uint8_t *dst) {
    SMOOTH_BODY
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2")))
static void smooth9_avx2(const uint8_t *src, int width, int height, uint16_t *mid, uint8_t *dst) {
    SMOOTH_BODY
}

#endif

void glimpse_smooth9(const uint8_t *src, int width, int height, uint16_t *mid, uint8_t *dst) {
    if (width < 1 || height < 1) return;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (glimpse_cpu_has_avx2()) { smooth9_avx2(src, width, height, mid, dst); return; }
#endif
    smooth9_generic(src, width, height, mid, dst);
}
