#include "CGlimpseVisionKernels.h"
#include "cpu_features.h"

// Dot products of one 32-bit float vector with many (feature prints: for L2-normalised prints, the cosine
// similarity). Eight running sums over lanes i mod 8, added in lane order and then the tail, with no
// fused multiply-add, so that every build and every variant gives the same bits. On x86-64 the lanes are
// written with SSE (the baseline) or AVX intrinsics, which stay fast in a debug build too, where the
// matcher's calibration (hundreds of null prints against every reference view) runs at every start.

#pragma clang fp contract(off)

/// The lane sums in order, then the tail: the one definition every variant ends with.
static inline float finish(const float acc[8], const float *query, const float *r, size_t i, size_t dimension) {
    float sum = -0.0f;
    for (int k = 0; k < 8; k++) sum += acc[k];
    for (; i < dimension; i++) sum += query[i] * r[i];
    return sum;
}

#if defined(GLIMPSE_X86_KERNELS)
#include <immintrin.h>

static void dot_rows_sse(const float *query, const float *rows, size_t count, size_t dimension, float *out) {
    for (size_t row = 0; row < count; row++) {
        const float *r = rows + row * dimension;
        __m128 lo = _mm_setzero_ps(), hi = _mm_setzero_ps();
        size_t i = 0;
        for (; i + 8 <= dimension; i += 8) {
            lo = _mm_add_ps(lo, _mm_mul_ps(_mm_loadu_ps(query + i), _mm_loadu_ps(r + i)));
            hi = _mm_add_ps(hi, _mm_mul_ps(_mm_loadu_ps(query + i + 4), _mm_loadu_ps(r + i + 4)));
        }
        float acc[8];
        _mm_storeu_ps(acc, lo);
        _mm_storeu_ps(acc + 4, hi);
        out[row] = finish(acc, query, r, i, dimension);
    }
}

__attribute__((target("avx")))
static void dot_rows_avx(const float *query, const float *rows, size_t count, size_t dimension, float *out) {
    for (size_t row = 0; row < count; row++) {
        const float *r = rows + row * dimension;
        __m256 sum = _mm256_setzero_ps();
        size_t i = 0;
        for (; i + 8 <= dimension; i += 8) {
            sum = _mm256_add_ps(sum, _mm256_mul_ps(_mm256_loadu_ps(query + i), _mm256_loadu_ps(r + i)));
        }
        float acc[8];
        _mm256_storeu_ps(acc, sum);
        out[row] = finish(acc, query, r, i, dimension);
    }
}
#else
static void dot_rows_plain(const float *query, const float *rows, size_t count, size_t dimension, float *out) {
    for (size_t row = 0; row < count; row++) {
        const float *r = rows + row * dimension;
        float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        size_t i = 0;
        for (; i + 8 <= dimension; i += 8) {
            for (int k = 0; k < 8; k++) acc[k] += query[i + k] * r[i + k];
        }
        out[row] = finish(acc, query, r, i, dimension);
    }
}
#endif

void glimpse_dot_rows(const float *query, const float *rows, size_t count, size_t dimension, float *out) {
    if (count == 0) return;
#if defined(GLIMPSE_X86_KERNELS)
    if (glimpse_cpu_has_avx2()) { dot_rows_avx(query, rows, count, dimension, out); return; }
    dot_rows_sse(query, rows, count, dimension, out);
#else
    dot_rows_plain(query, rows, count, dimension, out);
#endif
}
