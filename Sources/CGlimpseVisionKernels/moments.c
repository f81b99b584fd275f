#include "CGlimpseVisionKernels.h"
#include "cpu_features.h"

// The intensity moments of ORB's orientation: over the disc of radius 15 about a keypoint, m10 = Σ u·I
// and m01 = Σ v·I for the pixel at column offset u and row offset v. Exact integers in both variants:
// a scalar one, and on x86-64 an AVX2 one that takes a row pair (v and −v) of 32 pixels per step with
// 16-bit multiply-adds.

// Half-width of the disc at row offset v (0...15): ⌊√(15² − v²)⌋.
static const int half_width[16] = {15, 14, 14, 14, 14, 14, 13, 13, 12, 12, 11, 10, 9, 7, 5, 0};

static void moments_scalar(const uint8_t *image, int width, const int32_t *centers, size_t count,
                           int32_t *m10_out, int32_t *m01_out) {
    for (size_t n = 0; n < count; n++) {
        const uint8_t *c = image + centers[n];
        int m10 = 0, m01 = 0;
        for (int u = -15; u <= 15; u++) m10 += u * c[u];
        for (int v = 1; v <= 15; v++) {
            const int d = half_width[v];
            int sum_v = 0;
            for (int u = -d; u <= d; u++) {
                const int above = c[u - (ptrdiff_t)v * width], below = c[u + (ptrdiff_t)v * width];
                sum_v += below - above;
                m10 += u * (above + below);
            }
            m01 += v * sum_v;
        }
        m10_out[n] = m10;
        m01_out[n] = m01;
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("avx2")))
static void moments_avx2(const uint8_t *image, int width, const int32_t *centers, size_t count,
                         int32_t *m10_out, int32_t *m01_out) {
    // Per row offset v, over the 32 pixels from 15 left of the centre: u inside the disc (else 0), in
    // two halves of 16 lanes (pixels 0-15 and 16-31), and 1 inside the disc (else 0).
    __m256i u_lo[16], u_hi[16], in_lo[16], in_hi[16];
    for (int v = 0; v < 16; v++) {
        int16_t u[32], inside[32];
        for (int lane = 0; lane < 32; lane++) {
            const int offset = lane - 15;
            const int within = offset >= -half_width[v] && offset <= half_width[v];
            u[lane] = (int16_t)(within ? offset : 0);
            inside[lane] = (int16_t)within;
        }
        u_lo[v] = _mm256_loadu_si256((const __m256i *)u);
        u_hi[v] = _mm256_loadu_si256((const __m256i *)(u + 16));
        in_lo[v] = _mm256_loadu_si256((const __m256i *)inside);
        in_hi[v] = _mm256_loadu_si256((const __m256i *)(inside + 16));
    }
    for (size_t n = 0; n < count; n++) {
        const uint8_t *origin = image + centers[n] - 15;
        const __m256i middle = _mm256_loadu_si256((const __m256i *)origin);
        // |u| ≤ 15 and a row pair's pixels sum to at most 510: every product fits 16 bits, and the
        // multiply-adds sum pairs of them into 32.
        __m256i m10 = _mm256_add_epi32(
            _mm256_madd_epi16(u_lo[0], _mm256_cvtepu8_epi16(_mm256_castsi256_si128(middle))),
            _mm256_madd_epi16(u_hi[0], _mm256_cvtepu8_epi16(_mm256_extracti128_si256(middle, 1))));
        __m256i m01 = _mm256_setzero_si256();
        for (int v = 1; v <= 15; v++) {
            const __m256i above = _mm256_loadu_si256((const __m256i *)(origin - (ptrdiff_t)v * width));
            const __m256i below = _mm256_loadu_si256((const __m256i *)(origin + (ptrdiff_t)v * width));
            const __m256i a_lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(above));
            const __m256i a_hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256(above, 1));
            const __m256i b_lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(below));
            const __m256i b_hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256(below, 1));
            m10 = _mm256_add_epi32(m10, _mm256_add_epi32(
                _mm256_madd_epi16(u_lo[v], _mm256_add_epi16(a_lo, b_lo)),
                _mm256_madd_epi16(u_hi[v], _mm256_add_epi16(a_hi, b_hi))));
            const __m256i diff = _mm256_add_epi32(
                _mm256_madd_epi16(in_lo[v], _mm256_sub_epi16(b_lo, a_lo)),
                _mm256_madd_epi16(in_hi[v], _mm256_sub_epi16(b_hi, a_hi)));
            m01 = _mm256_add_epi32(m01, _mm256_mullo_epi32(diff, _mm256_set1_epi32(v)));
        }
        int32_t a[8], b[8];
        _mm256_storeu_si256((__m256i *)a, m10);
        _mm256_storeu_si256((__m256i *)b, m01);
        m10_out[n] = a[0] + a[1] + a[2] + a[3] + a[4] + a[5] + a[6] + a[7];
        m01_out[n] = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + b[7];
    }
}

#endif

void glimpse_intensity_moments(const uint8_t *image, int width, const int32_t *centers, size_t count, int variant,
                               int32_t *m10, int32_t *m01) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (variant != 1 && glimpse_cpu_has_avx2()) { moments_avx2(image, width, centers, count, m10, m01); return; }
#endif
    (void)variant;
    moments_scalar(image, width, centers, count, m10, m01);
}
