#include "CGlimpseVisionKernels.h"
#include "cpu_features.h"

// FAST-9 corner detection. A pixel p is a corner when 9 contiguous pixels of the 16-pixel Bresenham
// ring of radius 3 are all brighter than p + t or all darker than p - t (strictly). Its score is the
// sum over the whole ring of how far each ring pixel lies beyond that threshold, for the kind (bright
// or dark) that has the arc, the larger when both have one; it is stored as score + 1 (so 0 means "not
// a corner"), saturated at 65535. Any 9-pixel arc holds ring pixel 0 or 8, and 4 or 12: a pixel whose
// pixels 0 and 8 both lie within the threshold is no corner, which rejects most pixels at once.
//
// Two variants with the same results, chosen once per process: a scalar one, and on x86-64 an AVX2
// one that tests 32 pixels per step, finds the arcs with a run-length count per lane and sums the
// scores in 16-bit lanes.

// Ring offsets, clockwise from the top: (dx, dy).
static const int ring_dx[16] = {0, 1, 2, 3, 3, 3, 2, 1, 0, -1, -2, -3, -3, -3, -2, -1};
static const int ring_dy[16] = {-3, -3, -2, -1, 0, 1, 2, 3, 3, 3, 2, 1, 0, -1, -2, -3};

// Whether the 16-bit ring mask holds 9 contiguous set bits (with wrap-around).
static int has_arc_of_9(uint32_t mask) {
    if (__builtin_popcount(mask) < 9) return 0;
    uint32_t m = mask | (mask << 16);
    uint32_t r1 = m & (m >> 1);
    uint32_t r2 = r1 & (r1 >> 2);
    uint32_t r4 = r2 & (r2 >> 4);
    return (r4 & (m >> 8)) != 0;
}

// The stored score of the pixel at `c` (0 when it is no corner).
static uint16_t corner_score(const uint8_t *c, const ptrdiff_t *offsets, int threshold) {
    const int p = c[0], hi = p + threshold, lo = p - threshold;
    uint32_t bright = 0, dark = 0;
    int sum_bright = 0, sum_dark = 0;
    for (int k = 0; k < 16; k++) {
        const int v = c[offsets[k]];
        if (v > hi) { bright |= 1u << k; sum_bright += v - hi; }
        if (v < lo) { dark |= 1u << k; sum_dark += lo - v; }
    }
    int score = 0;
    if (has_arc_of_9(bright)) score = sum_bright;
    if (has_arc_of_9(dark) && sum_dark > score) score = sum_dark;
    if (score <= 0) return 0;
    return (uint16_t)(score + 1 < 65535 ? score + 1 : 65535);
}

// Records the corner at (x, y): its score in `scores`, its position in `xy` while there is room.
static inline void record(int x, int y, uint16_t score, int width, uint16_t *scores, int32_t *xy, size_t capacity,
                          size_t *count) {
    scores[(size_t)y * (size_t)width + (size_t)x] = score;
    if (*count < capacity) { xy[2 * *count] = x; xy[2 * *count + 1] = y; }
    *count += 1;
}

// Tests the pixels x_from ..< x_to of row y one at a time; returns the corner count so far.
static size_t scan_scalar(const uint8_t *image, int width, int y, int x_from, int x_to, const ptrdiff_t *offsets,
                          int threshold, uint16_t *scores, int32_t *xy, size_t capacity, size_t count) {
    const uint8_t *row = image + (size_t)y * (size_t)width;
    for (int x = x_from; x < x_to; x++) {
        const uint8_t *c = row + x;
        const int p = c[0], hi = p + threshold, lo = p - threshold;
        const int v0 = c[offsets[0]], v8 = c[offsets[8]];
        if (v0 <= hi && v8 <= hi && v0 >= lo && v8 >= lo) continue;
        const uint16_t score = corner_score(c, offsets, threshold);
        if (score != 0) record(x, y, score, width, scores, xy, capacity, &count);
    }
    return count;
}

static size_t fast9_scalar(const uint8_t *image, int width, int height, int border, int threshold,
                           uint16_t *scores, int32_t *xy, size_t capacity) {
    ptrdiff_t offsets[16];
    for (int k = 0; k < 16; k++) offsets[k] = (ptrdiff_t)ring_dy[k] * width + ring_dx[k];
    size_t count = 0;
    for (int y = border; y < height - border; y++) {
        count = scan_scalar(image, width, y, border, width - border, offsets, threshold, scores, xy, capacity, count);
    }
    return count;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

// Lanes where `a > b` as unsigned bytes (0xFF) or not (0).
__attribute__((target("avx2")))
static inline __m256i greater_u8(__m256i a, __m256i b) {
    return _mm256_xor_si256(_mm256_cmpeq_epi8(_mm256_subs_epu8(a, b), _mm256_setzero_si256()), _mm256_set1_epi8(-1));
}

__attribute__((target("avx2,popcnt")))
static size_t fast9_avx2(const uint8_t *image, int width, int height, int border, int threshold,
                         uint16_t *scores, int32_t *xy, size_t capacity) {
    ptrdiff_t offsets[16];
    for (int k = 0; k < 16; k++) offsets[k] = (ptrdiff_t)ring_dy[k] * width + ring_dx[k];
    const __m256i t = _mm256_set1_epi8((char)(threshold > 255 ? 255 : threshold));
    const __m256i one = _mm256_set1_epi8(1), nine = _mm256_set1_epi8(9);
    size_t count = 0;
    for (int y = border; y < height - border; y++) {
        const uint8_t *row = image + (size_t)y * (size_t)width;
        const int end = width - border;
        int x = border;  // the first pixel the scalar loop below still has to test
        // Blocks of 32 pixels; the last one ends at the row's end, overlapping the one before, whose
        // lanes it skips. A row narrower than a block is left to the scalar loop.
        for (int next = border; end - border >= 32 && next < end;) {
            const int x0 = next + 32 <= end ? next : end - 32;
            const uint32_t done = (uint32_t)(next - x0);  // leading lanes an earlier block tested
            next = x0 + 32;
            x = end;
            const uint8_t *c = row + x0;
            const __m256i center = _mm256_loadu_si256((const __m256i *)c);
            // Saturated bounds: c + t ≥ 255 leaves nothing brighter, c - t ≤ 0 nothing darker, as in the
            // scalar comparison on ints.
            const __m256i hi = _mm256_adds_epu8(center, t), lo = _mm256_subs_epu8(center, t);
            // A 9-pixel arc spans 8 steps of the ring, so it holds two neighbouring compass pixels (0 and 4,
            // 4 and 8, 8 and 12, or 12 and 0) of its kind: a block with no such lane has no corner.
            const __m256i north = _mm256_loadu_si256((const __m256i *)(c + offsets[0]));
            const __m256i east = _mm256_loadu_si256((const __m256i *)(c + offsets[4]));
            const __m256i south = _mm256_loadu_si256((const __m256i *)(c + offsets[8]));
            const __m256i west = _mm256_loadu_si256((const __m256i *)(c + offsets[12]));
            const __m256i nb = greater_u8(north, hi), eb = greater_u8(east, hi);
            const __m256i sb = greater_u8(south, hi), wb = greater_u8(west, hi);
            const __m256i nd = greater_u8(lo, north), ed = greater_u8(lo, east);
            const __m256i sd = greater_u8(lo, south), wd = greater_u8(lo, west);
            const __m256i candidates = _mm256_or_si256(
                _mm256_and_si256(_mm256_or_si256(nb, sb), _mm256_or_si256(eb, wb)),
                _mm256_and_si256(_mm256_or_si256(nd, sd), _mm256_or_si256(ed, wd)));
            if (_mm256_testz_si256(candidates, candidates)) continue;
            // Longest run of brighter (darker) ring pixels per lane, around the ring and 8 further. The
            // masks are kept inverted (0xFF where a ring pixel is not beyond the threshold), which is what
            // the comparison gives and what the run update clears with.
            __m256i not_bright[16], not_dark[16];
            const __m256i zero = _mm256_setzero_si256();
            for (int k = 0; k < 16; k++) {
                const __m256i v = _mm256_loadu_si256((const __m256i *)(c + offsets[k]));
                not_bright[k] = _mm256_cmpeq_epi8(_mm256_subs_epu8(v, hi), zero);
                not_dark[k] = _mm256_cmpeq_epi8(_mm256_subs_epu8(lo, v), zero);
            }
            __m256i run_b = zero, run_d = zero, best_b = zero, best_d = zero;
            for (int k = 0; k < 24; k++) {
                run_b = _mm256_andnot_si256(not_bright[k & 15], _mm256_add_epi8(run_b, one));
                run_d = _mm256_andnot_si256(not_dark[k & 15], _mm256_add_epi8(run_d, one));
                best_b = _mm256_max_epu8(best_b, run_b);
                best_d = _mm256_max_epu8(best_d, run_d);
            }
            const __m256i arc_b = _mm256_cmpeq_epi8(_mm256_max_epu8(best_b, nine), best_b);
            const __m256i arc_d = _mm256_cmpeq_epi8(_mm256_max_epu8(best_d, nine), best_d);
            uint32_t lanes_b = (uint32_t)_mm256_movemask_epi8(arc_b), lanes_d = (uint32_t)_mm256_movemask_epi8(arc_d);
            uint32_t lanes = (lanes_b | lanes_d) & (done >= 32 ? 0u : ~((1u << done) - 1u));
            if (lanes == 0) continue;
            // Only a block with a corner: each lane's excess over the threshold summed over the whole ring
            // in 16 bits (at most 16 × 255), lanes 0-15 in the low sums, 16-31 in the high ones.
            __m256i sum_b_lo = zero, sum_b_hi = zero, sum_d_lo = zero, sum_d_hi = zero;
            for (int k = 0; k < 16; k++) {
                const __m256i v = _mm256_loadu_si256((const __m256i *)(c + offsets[k]));
                const __m256i over = _mm256_subs_epu8(v, hi), under = _mm256_subs_epu8(lo, v);
                sum_b_lo = _mm256_add_epi16(sum_b_lo, _mm256_cvtepu8_epi16(_mm256_castsi256_si128(over)));
                sum_b_hi = _mm256_add_epi16(sum_b_hi, _mm256_cvtepu8_epi16(_mm256_extracti128_si256(over, 1)));
                sum_d_lo = _mm256_add_epi16(sum_d_lo, _mm256_cvtepu8_epi16(_mm256_castsi256_si128(under)));
                sum_d_hi = _mm256_add_epi16(sum_d_hi, _mm256_cvtepu8_epi16(_mm256_extracti128_si256(under, 1)));
            }
            uint16_t sum_b[32], sum_d[32];
            _mm256_storeu_si256((__m256i *)sum_b, sum_b_lo);
            _mm256_storeu_si256((__m256i *)(sum_b + 16), sum_b_hi);
            _mm256_storeu_si256((__m256i *)sum_d, sum_d_lo);
            _mm256_storeu_si256((__m256i *)(sum_d + 16), sum_d_hi);
            while (lanes != 0) {
                const int lane = __builtin_ctz(lanes);
                lanes &= lanes - 1;
                int score = 0;
                if (lanes_b & (1u << lane)) score = sum_b[lane];
                if ((lanes_d & (1u << lane)) && sum_d[lane] > score) score = sum_d[lane];
                // An arc's nine pixels each lie at least 1 beyond the threshold: score ≥ 9, never saturated.
                record(x0 + lane, y, (uint16_t)(score + 1), width, scores, xy, capacity, &count);
            }
        }
        count = scan_scalar(image, width, y, x, end, offsets, threshold, scores, xy, capacity, count);
    }
    return count;
}

#endif

size_t glimpse_fast9(const uint8_t *image, int width, int height, int border, int threshold, int variant,
                     uint16_t *scores, int32_t *xy, size_t capacity) {
    if (border < 3 || width <= 2 * border || height <= 2 * border || threshold < 1) return 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (variant != 1 && glimpse_cpu_has_avx2()) return fast9_avx2(image, width, height, border, threshold, scores, xy, capacity);
#endif
    (void)variant;
    return fast9_scalar(image, width, height, border, threshold, scores, xy, capacity);
}

int glimpse_fast9_uses_avx2(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    return glimpse_cpu_has_avx2();
#else
    return 0;
#endif
}
