// The hot loops of GlimpseVision: Hamming-distance kernels over 256-bit binary descriptors (four
// 64-bit words each), FAST-9 corner detection, the Harris response that ranks the corners, the binomial
// smoothing of pyramid levels, the intensity moments that orient keypoints, and the dot products of
// one feature print with many.
//
// The only C in GlimpseVision. It exists so popcount, AVX2 and AVX-512 can be used on x86-64
// without compiling the whole package for a newer CPU: each kernel is compiled for the generic
// target and for the newer one, and the variant is chosen once at run time. Pointers are read (and
// the output buffers written) only for the duration of a call and never kept.
#ifndef CGLIMPSE_VISION_KERNELS_H
#define CGLIMPSE_VISION_KERNELS_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The Hamming distance between two 256-bit descriptors `a[0..3]` and `b[0..3]`.
uint32_t glimpse_hamming256(const uint64_t *a, const uint64_t *b);

/// Scans `count` descriptors stored contiguously at `refs` (4 words each) for the two nearest to
/// `query`. Writes the index of the nearest to `*best_index` (or -1 when `count` is 0), and the
/// nearest and second-nearest distances (257 when absent).
void glimpse_hamming_best2(const uint64_t *query, const uint64_t *refs, size_t count,
                           int32_t *best_index, uint32_t *best_distance, uint32_t *second_distance);

/// Like `glimpse_hamming_best2`, but over the descriptors `refs[indices[i]]` for `i < count`.
/// `*best_index` receives the winning value of `indices` (not its position).
void glimpse_hamming_best2_indexed(const uint64_t *query, const uint64_t *refs, const uint32_t *indices,
                                   size_t count, int32_t *best_index, uint32_t *best_distance,
                                   uint32_t *second_distance);

/// `glimpse_hamming_best2` for each of `query_count` contiguous query descriptors at `queries` against the
/// same `ref_count` contiguous descriptors at `refs`: entry `i` of the three outputs (each holding
/// `query_count` values) describes query `i`, exactly as `glimpse_hamming_best2` would, ties included. On
/// CPUs with AVX-512 VPOPCNTDQ the references are first regrouped word by word, eight per block, so one
/// step measures eight distances without shuffles; returns 0, or -1 when that scratch copy could not be
/// allocated (the outputs are then still complete, from the one-query kernel).
int glimpse_hamming_best2_all(const uint64_t *queries, size_t query_count, const uint64_t *refs, size_t ref_count,
                              int32_t *best_index, uint32_t *best_distance, uint32_t *second_distance);

/// For each of `query_count` query descriptors, the nearest indexed descriptor among those sharing a bucket
/// with it in any of `tables` (at most 32) LSH tables of `bits`-bit keys over `count` descriptors at `refs`:
/// key bit j of table t is descriptor bit `positions[t * bits + j]`; table t's bucket k holds
/// `entries[t * count + starts[t * (2^bits + 1) + k] ..< ... + k + 1]`; buckets with more than `cap` entries
/// are skipped. With `copies` (else NULL), a bucket of more than `copy_line` and at most `copy_cap` entries is
/// read from its contiguous copy instead, the same descriptors in the same order, starting at descriptor
/// `copy_starts[t * 2^bits + k]` of `copies`: the same answer without a cache miss per entry. Writes the
/// winning descriptor index (-1 when every bucket was empty or skipped) and its distance (257 then); ties go to
/// the earlier table, then to the earlier entry.
void glimpse_lsh_nearest(const uint64_t *queries, size_t query_count, const uint64_t *refs, const uint32_t *entries,
                         const uint32_t *starts, const int32_t *positions, int tables, int bits, size_t count,
                         size_t cap, const uint64_t *copies, const uint32_t *copy_starts, size_t copy_line,
                         size_t copy_cap, int32_t *best_index, uint32_t *best_distance);

/// Writes the distance from `query` to each of `count` contiguous descriptors at `refs` into `out`.
void glimpse_hamming_many(const uint64_t *query, const uint64_t *refs, size_t count, uint16_t *out);

/// Writes the Hamming distance from the `words`-word code `query` to each of `count` contiguous codes of
/// `words` words at `codes` into `out` (`words` at most 1,023, so that a distance fits 16 bits).
void glimpse_hamming_codes(const uint64_t *query, const uint64_t *codes, size_t words, size_t count, uint16_t *out);

/// FAST-9 corners of the `width × height` 8-bit image at `image` (rows packed), at least `border` (≥ 3)
/// pixels from every edge, for intensity threshold `threshold` (≥ 1): writes each corner's score + 1
/// (the sum over the ring of how far its pixels lie beyond the threshold, for the kind, brighter or darker,
/// with an arc of 9; saturated at 65535) into `scores` (`width × height` values; other entries are left
/// alone) and its position into `xy` (x, y pairs, the first `capacity` corners in row order). Returns the
/// number of corners, which may exceed `capacity`: call again with room for all of them. `variant` 1
/// forces the scalar variant (for tests); 0 picks the fastest the CPU has.
size_t glimpse_fast9(const uint8_t *image, int width, int height, int border, int threshold, int variant,
                     uint16_t *scores, int32_t *xy, size_t capacity);

/// The `width × height` bytes at `src` resampled bilinearly in fixed point into `dst` (`out_width ×
/// out_height` bytes): output row y blends source rows `y_index[y]` and the one below (clamped) with weight
/// `y_weight[y]` / 256 for the lower, each sum kept in 16 bits; output pixel x blends that row's values at
/// `x_index[x]` and the next (the same one when `width` is 1) with weight `x_weight[x]` / 256 for the right,
/// then (sum + 32768) >> 16. Indices must lie in the image (`x_index[x] <= width - 2` when `width >= 2`),
/// weights in 0...256. `column` is scratch of `width + 1` values. `variant` 1 forces the scalar variant
/// (for tests); 0 picks the fastest the CPU has.
void glimpse_bilinear(const uint8_t *src, int width, int height, const int32_t *x_index, const uint16_t *x_weight,
                      int out_width, const int32_t *y_index, const uint16_t *y_weight, int out_height, int variant,
                      uint16_t *column, uint8_t *dst);

/// The dot product of the `dimension` floats at `query` with each of `count` rows of `dimension` floats
/// stored contiguously at `rows`, written to `out[0..<count]` in row order. Eight lane sums added in
/// order, no fused multiply-add: the same bits in every build and on every CPU.
void glimpse_dot_rows(const float *query, const float *rows, size_t count, size_t dimension, float *out);

/// The `width × height` bytes at `src` smoothed by the 9-tap binomial kernel (1 8 28 56 70 56 28 8 1)/256
/// in each direction, edges clamped, into `dst` (`width × height` bytes); `mid` is scratch for the
/// horizontal pass (`width × height` values). Exact integer arithmetic: the horizontal pass keeps
/// (sum + 8) >> 4, the vertical one writes (sum + 2048) >> 12.
void glimpse_smooth9(const uint8_t *src, int width, int height, uint16_t *mid, uint8_t *dst);

/// The rotated-BRIEF descriptors of `count` keypoints of the smoothed 8-bit image at `smooth` (rows of
/// `width` bytes), each given by its pixel index in `centers` (at least 19 pixels from every edge) and its
/// angle bin in `bins`, into `words` (4 per keypoint). `planar` is the pattern, per bin 256 x1, 256 y1,
/// 256 x2 and 256 y2 (signed bytes); test k compares the pixel at (x_sign·x1, y1) from the centre with the
/// one at (x_sign·x2, y2) and sets bit k (low bit of word 0 first) when the first is smaller. `x_sign` −1
/// gives the mirror image's descriptor at the reflected point. `variant` 1 forces the scalar variant (for
/// tests); 0 picks the fastest (AVX-512 gathers where the CPU has them).
void glimpse_brief(const uint8_t *smooth, int width, const int32_t *centers, const uint8_t *bins, size_t count,
                   const int8_t *planar, int x_sign, int variant, uint64_t *words);

/// 1 when ``glimpse_brief`` runs its AVX-512 variant on this CPU.
int glimpse_brief_uses_avx512(void);

/// The intensity moments of ORB's orientation for `count` keypoints of the 8-bit image at `image` (rows of
/// `width` bytes), each given by its pixel index in `centers` and at least 19 pixels from every edge:
/// over the disc of radius 15 (half-width ⌊√(225 − v²)⌋ at row offset v), `m10[i]` = Σ u·I and
/// `m01[i]` = Σ v·I. `variant` 1 forces the scalar variant (for tests); 0 picks the fastest.
void glimpse_intensity_moments(const uint8_t *image, int width, const int32_t *centers, size_t count, int variant,
                               int32_t *m10, int32_t *m01);

/// The Harris response (k = 0.04) of `count` corners of the 8-bit image at `image` (rows of `width`
/// bytes), each given by its pixel index in `centers` and at least 4 pixels from every edge: over the 7 × 7
/// window, a = Σ gx², b = Σ gy², c = Σ gx·gy of the 3 × 3 Sobel gradients, then, in single precision
/// with each sum scaled by (1 / 7140)², sa·sb − sc² − 0.04·(sa + sb)², into `response`. `variant` 1
/// forces the scalar variant (for tests); 0 picks the fastest.
void glimpse_harris(const uint8_t *image, int width, const int32_t *centers, size_t count, int variant,
                    float *response);

/// 1 when `glimpse_fast9` runs its AVX2 variant, 0 for the scalar one.
int glimpse_fast9_uses_avx2(void);

/// 1 when the hardware popcount variant is in use, 0 for the generic one.
int glimpse_hamming_uses_hardware_popcount(void);

#ifdef __cplusplus
}
#endif

#endif
