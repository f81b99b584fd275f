// The int8 depthwise convolution with AVX-512 VNNI (vpdpwssd: 32 16-bit products, summed in pairs, per
// instruction), in place of Debian 12's XNNPACK kernel, which widens to 16 bits without VNNI and takes
// each tap alone. See int8_network.h for the layouts; the requantisation is XNNPACK's qs8 "fp32" one,
// so the output bytes are XNNPACK's.
//
// A run has two passes per block of 32 channels and band of output rows. The first writes the padded
// input, minus its zero point, as 16-bit pairs of horizontal neighbours (column c holds columns c and
// c + 1, interleaved the way vpunpcklwd / vpunpckhwd interleave them), zeros outside the image. The second
// sums, per output pixel, kernel height × ceil(kernel width / 2) pairs against weights packed the same way
// (the last pair of an odd kernel width has a zero weight), with no test for the border.
#include "int8_network.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define GFP_HAS_VNNI_CODE 1
#define VNNI_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
#else
#define GFP_HAS_VNNI_CODE 0
#endif

/// The channel (within its block of 32) of element `e` (0...15) of the low (`high` 0) or high (1) half:
/// vpunpck*wd work within 128-bit lanes of 8 channels, 4 to each half.
static size_t channel_of(size_t e, int high) { return e / 4 * 8 + (size_t)high * 4 + e % 4; }

/// Output rows per band: the pairs of one band's input rows stay in the cache between the two passes.
enum { BAND = 8 };

static size_t pair_count(size_t kernel_width) { return (kernel_width + 1) / 2; }

size_t gfp_same_padding_before(size_t in, size_t kernel, size_t stride) {
    const size_t out = (in + stride - 1) / stride;
    const long total = (long)((out - 1) * stride + kernel) - (long)in;
    return total > 0 ? (size_t)total / 2 : 0;
}

int gfp_depthwise_fits(const gfp_layer *layer, gfp_shape in, gfp_shape out) {
    return layer->kind == GFP_DEPTHWISE_CONVOLUTION && layer->stride_height == layer->stride_width
        && layer->stride_height > 0 && layer->kernel_height > 0 && layer->kernel_width > 0
        && layer->input_channels == in.channels && layer->output_channels == in.channels
        && out.channels == in.channels && out.height > 0 && out.width > 0;
}

gfp_depthwise gfp_depthwise_shape(const gfp_layer *layer, gfp_shape in, gfp_shape out) {
    const size_t kh = layer->kernel_height, kw = layer->kernel_width, stride = layer->stride_height;
    const size_t columns = (out.width - 1) * stride + kw, step = stride % 2 == 0 ? 2 : 1;
    return (gfp_depthwise){
        .input_height = in.height, .input_width = in.width, .channels = in.channels,
        .output_height = out.height, .output_width = out.width, .kernel_height = kh, .kernel_width = kw,
        .stride = stride, .padding_top = layer->same_padding ? gfp_same_padding_before(in.height, kh, stride) : 0,
        .padding_left = layer->same_padding ? gfp_same_padding_before(in.width, kw, stride) : 0,
        .rows = (out.height - 1) * stride + kh, .columns = columns, .step = step, .stored = (columns + step - 1) / step,
        .blocks = (in.channels + 31) / 32};
}

size_t gfp_depthwise_packed_bytes(size_t channels, size_t kernel_height, size_t kernel_width) {
    return (channels + 31) / 32 * kernel_height * pair_count(kernel_width) * 64 * sizeof(int16_t);
}

size_t gfp_depthwise_scratch_bytes(const gfp_depthwise *d) {
    const size_t band = (BAND - 1) * d->stride + d->kernel_height;
    return (band < d->rows ? band : d->rows) * d->stored * 64 * sizeof(int16_t);
}

size_t gfp_depthwise_network_scratch_bytes(const gfp_network_description *n) {
    size_t largest = 0;
    for (uint32_t i = 0; i < n->layer_count; i++) {
        const gfp_layer *layer = &n->layers[i];
        const gfp_shape in = n->shapes[layer->input], out = n->shapes[layer->output];
        if (!gfp_depthwise_fits(layer, in, out)) continue;
        const gfp_depthwise shape = gfp_depthwise_shape(layer, in, out);
        const size_t bytes = gfp_depthwise_scratch_bytes(&shape);
        largest = bytes > largest ? bytes : largest;
    }
    return largest;
}

void gfp_depthwise_pack(const int8_t *weights, const int32_t *bias, const float *weight_scales, float input_scale,
                        float output_scale, gfp_depthwise *d, int16_t *packed, int32_t *packed_bias,
                        float *multiplier) {
    const size_t c = d->channels, pairs = pair_count(d->kernel_width);
    for (size_t b = 0; b < d->blocks; b++) {
        for (int high = 0; high < 2; high++) {
            for (size_t e = 0; e < 16; e++) {
                const size_t channel = b * 32 + channel_of(e, high), at = b * 32 + (size_t)high * 16 + e;
                const int inside = channel < c;
                packed_bias[at] = inside ? bias[channel] : 0;
                multiplier[at] = inside ? input_scale * weight_scales[channel] / output_scale : 0.0f;
                for (size_t ky = 0; ky < d->kernel_height; ky++) {
                    for (size_t j = 0; j < pairs; j++) {
                        int16_t *pair = packed + ((b * d->kernel_height + ky) * pairs + j) * 64 + high * 32 + e * 2;
                        for (size_t t = 0; t < 2; t++) {
                            const size_t kx = 2 * j + t;
                            pair[t] = inside && kx < d->kernel_width
                                ? weights[(ky * d->kernel_width + kx) * c + channel] : 0;
                        }
                    }
                }
            }
        }
    }
    d->packed = packed;
    d->bias = packed_bias;
    d->multiplier = multiplier;
}

#if GFP_HAS_VNNI_CODE
/// Input pixel (`iy`, `ix`) of block `b` as 32 16-bit values minus the zero point; zero outside the image.
static inline VNNI_TARGET __attribute__((always_inline)) __m512i widened(
    const gfp_depthwise *d, const int8_t *x, long iy, long ix, size_t b, __mmask32 mask, __m512i zero_point) {
    if (ix < 0 || ix >= (long)d->input_width) return _mm512_setzero_si512();
    const __m256i bytes = _mm256_maskz_loadu_epi8(mask, x + ((size_t)iy * d->input_width + (size_t)ix) * d->channels
                                                             + b * 32);
    return _mm512_sub_epi16(_mm512_cvtepi8_epi16(bytes), zero_point);
}

/// The first pass: block `b`'s pairs of horizontal neighbours over `count` padded rows from `first`.
static VNNI_TARGET void write_pairs(const gfp_depthwise *d, const int8_t *x, size_t b, size_t first, size_t count,
                                    int16_t *pairs) {
    const size_t remaining = d->channels - b * 32;
    const __mmask32 mask = remaining >= 32 ? 0xFFFFFFFFu : (__mmask32)((1u << remaining) - 1);
    const __m512i zero_point = _mm512_set1_epi16(d->input_zero_point);
    for (size_t r = 0; r < count; r++) {
        int16_t *row = pairs + r * d->stored * 64;
        const long iy = (long)(first + r) - (long)d->padding_top;
        if (iy < 0 || iy >= (long)d->input_height) {
            memset(row, 0, d->stored * 64 * sizeof(int16_t));
            continue;
        }
        const long left = (long)d->padding_left;
        if (d->step == 2) {
            for (size_t i = 0; i < d->stored; i++) {
                const __m512i current = widened(d, x, iy, (long)(2 * i) - left, b, mask, zero_point);
                const __m512i next = widened(d, x, iy, (long)(2 * i) + 1 - left, b, mask, zero_point);
                _mm512_store_si512(row + i * 64, _mm512_unpacklo_epi16(current, next));
                _mm512_store_si512(row + i * 64 + 32, _mm512_unpackhi_epi16(current, next));
            }
            continue;
        }
        __m512i current = widened(d, x, iy, -left, b, mask, zero_point);
        for (size_t c = 0; c < d->stored; c++) {
            const __m512i next = widened(d, x, iy, (long)c + 1 - left, b, mask, zero_point);
            _mm512_store_si512(row + c * 64, _mm512_unpacklo_epi16(current, next));
            _mm512_store_si512(row + c * 64 + 32, _mm512_unpackhi_epi16(current, next));
            current = next;
        }
    }
}

/// A block's per-channel constants for the requantisation.
typedef struct requantisation {
    __m512 scale_low, scale_high, low, high;
    __m512i zero_point;
} requantisation;

/// XNNPACK's fp32 requantisation of 32 sums (the two halves), stored as 32 bytes in channel order.
static inline VNNI_TARGET __attribute__((always_inline)) void store(const requantisation *q, __m512i sum_low,
                                                                    __m512i sum_high, __mmask32 mask, int8_t *y) {
    // Scale, clamp (less the zero point), round to nearest even, add the zero point.
    __m512 f_low = _mm512_mul_ps(_mm512_cvtepi32_ps(sum_low), q->scale_low);
    __m512 f_high = _mm512_mul_ps(_mm512_cvtepi32_ps(sum_high), q->scale_high);
    f_low = _mm512_max_ps(_mm512_min_ps(f_low, q->high), q->low);
    f_high = _mm512_max_ps(_mm512_min_ps(f_high, q->high), q->low);
    const __m512i v_low = _mm512_add_epi32(_mm512_cvtps_epi32(f_low), q->zero_point);
    const __m512i v_high = _mm512_add_epi32(_mm512_cvtps_epi32(f_high), q->zero_point);
    // Packing the halves lane by lane puts the 32 channels back in order.
    _mm512_mask_cvtepi16_storeu_epi8(y, mask, _mm512_packs_epi32(v_low, v_high));
}

/// The second pass for block `b`, output rows `top` ..< `bottom`, over pairs whose first row is padded row
/// `first`; the kernel size is known to the compiler when inlined with constants. Two output pixels at a
/// time share each weight load.
static inline VNNI_TARGET __attribute__((always_inline)) void sum_pairs(
    const gfp_depthwise *d, size_t kernel_height, size_t kernel_width, size_t step, size_t b, size_t top,
    size_t bottom, const int16_t *pairs, size_t first, int8_t *y) {
    const size_t count = pair_count(kernel_width), stride = d->stride, columns = d->stored, width = d->output_width;
    // Stored columns from one output pixel to the next, and from one pair of kernel columns to the next.
    const size_t next_pixel = stride / step * 64, next_pair = 2 / step * 64;
    const size_t remaining = d->channels - b * 32;
    const __mmask32 mask = remaining >= 32 ? 0xFFFFFFFFu : (__mmask32)((1u << remaining) - 1);
    const int16_t *w = d->packed + b * kernel_height * count * 64;
    const __m512i bias_low = _mm512_load_si512(d->bias + b * 32), bias_high = _mm512_load_si512(d->bias + b * 32 + 16);
    const requantisation q = {
        .scale_low = _mm512_load_ps(d->multiplier + b * 32), .scale_high = _mm512_load_ps(d->multiplier + b * 32 + 16),
        .low = _mm512_set1_ps((float)(d->output_min - d->output_zero_point)),
        .high = _mm512_set1_ps((float)(d->output_max - d->output_zero_point)),
        .zero_point = _mm512_set1_epi32(d->output_zero_point)};
    for (size_t oy = top; oy < bottom; oy++) {
        const int16_t *line = pairs + (oy * stride - first) * columns * 64;
        int8_t *out = y + oy * width * d->channels + b * 32;
        size_t ox = 0;
        for (; ox + 2 <= width; ox += 2) {
            __m512i a_low = bias_low, a_high = bias_high, b_low = bias_low, b_high = bias_high;
            for (size_t ky = 0; ky < kernel_height; ky++) {
                const int16_t *p = line + ky * columns * 64 + ox * next_pixel, *k = w + ky * count * 64;
                for (size_t j = 0; j < count; j++) {
                    const __m512i k_low = _mm512_load_si512(k + j * 64), k_high = _mm512_load_si512(k + j * 64 + 32);
                    a_low = _mm512_dpwssd_epi32(a_low, _mm512_load_si512(p + j * next_pair), k_low);
                    a_high = _mm512_dpwssd_epi32(a_high, _mm512_load_si512(p + j * next_pair + 32), k_high);
                    b_low = _mm512_dpwssd_epi32(b_low, _mm512_load_si512(p + next_pixel + j * next_pair), k_low);
                    b_high = _mm512_dpwssd_epi32(b_high, _mm512_load_si512(p + next_pixel + j * next_pair + 32),
                                                 k_high);
                }
            }
            store(&q, a_low, a_high, mask, out + ox * d->channels);
            store(&q, b_low, b_high, mask, out + (ox + 1) * d->channels);
        }
        for (; ox < width; ox++) {
            __m512i a_low = bias_low, a_high = bias_high;
            for (size_t ky = 0; ky < kernel_height; ky++) {
                const int16_t *p = line + ky * columns * 64 + ox * next_pixel, *k = w + ky * count * 64;
                for (size_t j = 0; j < count; j++) {
                    a_low = _mm512_dpwssd_epi32(a_low, _mm512_load_si512(p + j * next_pair),
                                                _mm512_load_si512(k + j * 64));
                    a_high = _mm512_dpwssd_epi32(a_high, _mm512_load_si512(p + j * next_pair + 32),
                                                 _mm512_load_si512(k + j * 64 + 32));
                }
            }
            store(&q, a_low, a_high, mask, out + ox * d->channels);
        }
    }
}

static VNNI_TARGET void run_vnni(const gfp_depthwise *d, const int8_t *x, int8_t *y) {
    for (size_t b = 0; b < d->blocks; b++) {
        for (size_t top = 0; top < d->output_height; top += BAND) {
            const size_t bottom = top + BAND < d->output_height ? top + BAND : d->output_height;
            const size_t first = top * d->stride, count = (bottom - 1 - top) * d->stride + d->kernel_height;
            write_pairs(d, x, b, first, count, d->pairs);
            const size_t kh = d->kernel_height, kw = d->kernel_width, step = d->step;
            if (kh == 3 && kw == 3 && step == 1) {
                sum_pairs(d, 3, 3, 1, b, top, bottom, d->pairs, first, y);
            } else if (kh == 3 && kw == 3 && step == 2) {
                sum_pairs(d, 3, 3, 2, b, top, bottom, d->pairs, first, y);
            } else if (kh == 5 && kw == 5 && step == 1) {
                sum_pairs(d, 5, 5, 1, b, top, bottom, d->pairs, first, y);
            } else if (kh == 5 && kw == 5 && step == 2) {
                sum_pairs(d, 5, 5, 2, b, top, bottom, d->pairs, first, y);
            } else {
                sum_pairs(d, kh, kw, step, b, top, bottom, d->pairs, first, y);
            }
        }
    }
}
#endif

void gfp_depthwise_run(const gfp_depthwise *depthwise, const int8_t *input, int8_t *output) {
#if GFP_HAS_VNNI_CODE
    run_vnni(depthwise, input, output);
#else
    (void)depthwise;
    (void)input;
    (void)output;
#endif
}
