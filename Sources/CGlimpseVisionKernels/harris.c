#include "CGlimpseVisionKernels.h"

// The Harris corner response that ranks FAST corners: over the 7 × 7 window about each corner, the
// sums a = Σ gx², b = Σ gy², c = Σ gx·gy of the Sobel gradients (exact integers: |g| ≤ 1020, so each
// sum stays below 2³¹), then R = sa·sb − sc² − 0.04·(sa + sb)² with each sum scaled by (1 / (4·7·255))²,
// in single precision, in that order and without fused multiply-adds. On x86-64 a window row of 8
// gradients (7 used) is computed at a time in 16-bit lanes with SSE2, part of every x86-64 CPU.

#pragma clang fp contract(off)

static float harris_response(int32_t a, int32_t b, int32_t c) {
    const float scale = 1.0f / (4 * 7 * 255);
    const float sa = (float)a * scale * scale, sb = (float)b * scale * scale, sc = (float)c * scale * scale;
    return sa * sb - sc * sc - 0.04f * (sa + sb) * (sa + sb);
}

// One corner's response, a pixel at a time.
static float harris_one(const uint8_t *image, int width, int32_t center) {
    int32_t a = 0, b = 0, c = 0;
    for (int dy = -3; dy <= 3; dy++) {
        for (int dx = -3; dx <= 3; dx++) {
            const uint8_t *p = image + center + (ptrdiff_t)dy * width + dx;
            const int tl = p[-width - 1], t = p[-width], tr = p[-width + 1], l = p[-1], r = p[1];
            const int bl = p[width - 1], bm = p[width], br = p[width + 1];
            const int gx = (tr + 2 * r + br) - (tl + 2 * l + bl);
            const int gy = (bl + 2 * bm + br) - (tl + 2 * t + tr);
            a += gx * gx;
            b += gy * gy;
            c += gx * gy;
        }
    }
    return harris_response(a, b, c);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>

// Eight 16-bit lanes of the bytes at p.
static inline __m128i widen8(const uint8_t *p) {
    return _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)p), _mm_setzero_si128());
}

static inline int32_t sum4(__m128i v) {
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(v);
}

static void harris_sse2(const uint8_t *image, int width, const int32_t *centers, size_t count, float *response) {
    const __m128i keep7 = _mm_setr_epi16(-1, -1, -1, -1, -1, -1, -1, 0);
    for (size_t n = 0; n < count; n++) {
        // The 8-byte loads reach 5 pixels right of the centre (the masked lane's neighbour): a corner 4
        // from the right edge is done a pixel at a time.
        if (centers[n] % width + 5 >= width) { response[n] = harris_one(image, width, centers[n]); continue; }
        // Window columns −3…3 in lanes 0…6 (lane 7 masked out); their left, own and right neighbours.
        const uint8_t *c = image + centers[n] - 4;
        __m128i a = _mm_setzero_si128(), b = a, cc = a;
        for (int dy = -3; dy <= 3; dy++) {
            const uint8_t *top = c + (ptrdiff_t)(dy - 1) * width, *mid = c + (ptrdiff_t)dy * width;
            const uint8_t *bot = c + (ptrdiff_t)(dy + 1) * width;
            const __m128i tl = widen8(top), tm = widen8(top + 1), tr = widen8(top + 2);
            const __m128i ml = widen8(mid), mr = widen8(mid + 2);
            const __m128i bl = widen8(bot), bm = widen8(bot + 1), br = widen8(bot + 2);
            const __m128i right = _mm_add_epi16(_mm_add_epi16(tr, br), _mm_add_epi16(mr, mr));
            const __m128i left = _mm_add_epi16(_mm_add_epi16(tl, bl), _mm_add_epi16(ml, ml));
            const __m128i below = _mm_add_epi16(_mm_add_epi16(bl, br), _mm_add_epi16(bm, bm));
            const __m128i above = _mm_add_epi16(_mm_add_epi16(tl, tr), _mm_add_epi16(tm, tm));
            const __m128i gx = _mm_and_si128(_mm_sub_epi16(right, left), keep7);
            const __m128i gy = _mm_and_si128(_mm_sub_epi16(below, above), keep7);
            a = _mm_add_epi32(a, _mm_madd_epi16(gx, gx));
            b = _mm_add_epi32(b, _mm_madd_epi16(gy, gy));
            cc = _mm_add_epi32(cc, _mm_madd_epi16(gx, gy));
        }
        response[n] = harris_response(sum4(a), sum4(b), sum4(cc));
    }
}
#endif

static void harris_scalar(const uint8_t *image, int width, const int32_t *centers, size_t count, float *response) {
    for (size_t n = 0; n < count; n++) response[n] = harris_one(image, width, centers[n]);
}

void glimpse_harris(const uint8_t *image, int width, const int32_t *centers, size_t count, int variant,
                    float *response) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (variant != 1) { harris_sse2(image, width, centers, count, response); return; }
#endif
    (void)variant;
    harris_scalar(image, width, centers, count, response);
}
