#include "CGlimpseVisionKernels.h"
#include "cpu_features.h"

// Rotated-BRIEF descriptors. Test k of a keypoint at pixel index `center` with angle bin `bin` compares
// the smoothed image at the pattern's two points, (x1, y1) and (x2, y2) of bin `bin`, with the horizontal
// offsets multiplied by `x_sign`: bit k is 1 when the first is darker. The pattern is planar: for each
// bin, 256 x1, then 256 y1, 256 x2 and 256 y2 (signed bytes). Bits fill the four words low bit first.
//
// Two variants with the same results, chosen once per process: a scalar one, and on x86-64 with
// AVX-512 one that gathers 16 tests' pixels per step.

static void brief_scalar(const uint8_t *smooth, int width, const int32_t *centers, const uint8_t *bins, size_t count,
                         const int8_t *planar, int x_sign, uint64_t *words) {
    for (size_t i = 0; i < count; i++) {
        const uint8_t *base = smooth + centers[i];
        const int8_t *p = planar + (size_t)bins[i] * 1024;
        for (int word = 0; word < 4; word++) {
            uint64_t bits = 0;
            for (int bit = 0; bit < 64; bit++) {
                const int k = word * 64 + bit;
                const int a = base[(ptrdiff_t)p[256 + k] * width + x_sign * p[k]];
                const int b = base[(ptrdiff_t)p[768 + k] * width + x_sign * p[512 + k]];
                if (a < b) bits |= (uint64_t)1 << bit;
            }
            words[4 * i + (size_t)word] = bits;
        }
    }
}

#ifdef GLIMPSE_X86_KERNELS
#include <immintrin.h>

__attribute__((target("avx512f")))
static void brief_avx512(const uint8_t *smooth, int width, const int32_t *centers, const uint8_t *bins, size_t count,
                         const int8_t *planar, int x_sign, uint64_t *words) {
    const __m512i w = _mm512_set1_epi32(width), sign = _mm512_set1_epi32(x_sign);
    const __m512i low_byte = _mm512_set1_epi32(0xFF);
    for (size_t i = 0; i < count; i++) {
        // Each gather reads 4 bytes from a test's pixel on; every pattern point lies at most 15 pixels from
        // the centre and every centre at least 19 from the right edge, so the reads stay in the image.
        const uint8_t *base = smooth + centers[i];
        const int8_t *p = planar + (size_t)bins[i] * 1024;
        uint64_t out[4] = {0, 0, 0, 0};
        for (int g = 0; g < 16; g++) {
            const __m512i x1 = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(p + g * 16)));
            const __m512i y1 = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(p + 256 + g * 16)));
            const __m512i x2 = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(p + 512 + g * 16)));
            const __m512i y2 = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(p + 768 + g * 16)));
            const __m512i ia = _mm512_add_epi32(_mm512_mullo_epi32(y1, w), _mm512_mullo_epi32(x1, sign));
            const __m512i ib = _mm512_add_epi32(_mm512_mullo_epi32(y2, w), _mm512_mullo_epi32(x2, sign));
            const __m512i a = _mm512_and_si512(_mm512_i32gather_epi32(ia, (const void *)base, 1), low_byte);
            const __m512i b = _mm512_and_si512(_mm512_i32gather_epi32(ib, (const void *)base, 1), low_byte);
            const uint64_t mask = (uint64_t)_mm512_cmplt_epi32_mask(a, b);
            out[g >> 2] |= mask << (16 * (g & 3));
        }
        for (int word = 0; word < 4; word++) words[4 * i + (size_t)word] = out[word];
    }
}
#endif

void glimpse_brief(const uint8_t *smooth, int width, const int32_t *centers, const uint8_t *bins, size_t count,
                   const int8_t *planar, int x_sign, int variant, uint64_t *words) {
#ifdef GLIMPSE_X86_KERNELS
    if (variant != 1 && glimpse_cpu_has_avx512f()) {
        brief_avx512(smooth, width, centers, bins, count, planar, x_sign, words);
        return;
    }
#endif
    (void)variant;
    brief_scalar(smooth, width, centers, bins, count, planar, x_sign, words);
}

int glimpse_brief_uses_avx512(void) {
#ifdef GLIMPSE_X86_KERNELS
    return glimpse_cpu_has_avx512f();
#else
    return 0;
#endif
}
