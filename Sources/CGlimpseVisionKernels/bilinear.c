#include "CGlimpseVisionKernels.h"
#include "cpu_features.h"

// Bilinear resampling in fixed point, the pyramid's step. Output row y blends source rows y_index[y]
// and y_index[y] + 1 (the same row for a one-row image) with weight y_weight[y] / 256 for the lower one
// into `column` (at most 255 × 256: 16 bits); output pixel x then blends column[x_index[x]] and its right
// neighbour (itself for a one-column image) with weight x_weight[x] / 256, rounding once:
// (left · (256 − a) + right · a + 32768) >> 16. Two variants with the same results, chosen once per
// process: plain loops, and on x86-64 an AVX2 one whose row blend the compiler vectorises and whose
// column blend gathers each output pixel's two neighbours as one 32-bit load.

static inline void blend_rows(const uint8_t *row0, const uint8_t *row1, uint16_t weight, int width, uint16_t *column) {
    const uint16_t keep = (uint16_t)(256 - weight);
    for (int j = 0; j < width; j++) column[j] = (uint16_t)(row0[j] * keep + row1[j] * weight);
}

static inline uint8_t blend_pair(uint32_t left, uint32_t right, uint32_t a) {
    return (uint8_t)((left * (256 - a) + right * a + 32768) >> 16);
}

static void bilinear_scalar(const uint8_t *src, int width, int height, const int32_t *x_index,
                            const uint16_t *x_weight, int out_width, const int32_t *y_index, const uint16_t *y_weight,
                            int out_height, uint16_t *column, uint8_t *dst) {
    const int right = width >= 2 ? 1 : 0;
    for (int y = 0; y < out_height; y++) {
        const int iy = y_index[y];
        const int below = iy + 1 < height ? iy + 1 : height - 1;
        blend_rows(src + (size_t)iy * (size_t)width, src + (size_t)below * (size_t)width, y_weight[y], width, column);
        uint8_t *o = dst + (size_t)y * (size_t)out_width;
        for (int x = 0; x < out_width; x++) {
            const int i = x_index[x];
            o[x] = blend_pair(column[i], column[i + right], x_weight[x]);
        }
    }
}

#ifdef GLIMPSE_X86_KERNELS
#include <immintrin.h>

__attribute__((target("avx2")))
static void bilinear_avx2(const uint8_t *src, int width, int height, const int32_t *x_index,
                          const uint16_t *x_weight, int out_width, const int32_t *y_index, const uint16_t *y_weight,
                          int out_height, uint16_t *column, uint8_t *dst) {
    const __m256i low16 = _mm256_set1_epi32(0xFFFF), full = _mm256_set1_epi32(256);
    const __m256i half = _mm256_set1_epi32(32768);
    for (int y = 0; y < out_height; y++) {
        const int iy = y_index[y];
        const int below = iy + 1 < height ? iy + 1 : height - 1;
        blend_rows(src + (size_t)iy * (size_t)width, src + (size_t)below * (size_t)width, y_weight[y], width, column);
        uint8_t *o = dst + (size_t)y * (size_t)out_width;
        int x = 0;
        // Eight outputs per step: column[i] and column[i + 1] come in one 32-bit gather (i ≤ width − 2).
        for (; x + 8 <= out_width; x += 8) {
            const __m256i index = _mm256_loadu_si256((const __m256i *)(x_index + x));
            const __m256i pair = _mm256_i32gather_epi32((const int *)column, index, 2);
            const __m256i left = _mm256_and_si256(pair, low16), right = _mm256_srli_epi32(pair, 16);
            const __m256i a = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(x_weight + x)));
            const __m256i v = _mm256_srli_epi32(
                _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(left, _mm256_sub_epi32(full, a)),
                                                  _mm256_mullo_epi32(right, a)), half), 16);
            const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
            _mm_storel_epi64((__m128i *)(o + x), _mm_packus_epi16(words, words));
        }
        for (; x < out_width; x++) {
            const int i = x_index[x];
            o[x] = blend_pair(column[i], column[i + 1], x_weight[x]);
        }
    }
}
#endif

void glimpse_bilinear(const uint8_t *src, int width, int height, const int32_t *x_index, const uint16_t *x_weight,
                      int out_width, const int32_t *y_index, const uint16_t *y_weight, int out_height, int variant,
                      uint16_t *column, uint8_t *dst) {
    if (width < 1 || height < 1 || out_width < 1 || out_height < 1) return;
#ifdef GLIMPSE_X86_KERNELS
    if (variant != 1 && width >= 2 && glimpse_cpu_has_avx2()) {
        bilinear_avx2(src, width, height, x_index, x_weight, out_width, y_index, y_weight, out_height, column, dst);
        return;
    }
#endif
    (void)variant;
    bilinear_scalar(src, width, height, x_index, x_weight, out_width, y_index, y_weight, out_height, column, dst);
}
