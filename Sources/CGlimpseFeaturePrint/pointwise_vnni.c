// The int8 1×1 convolution with AVX-512 VNNI (vpdpbusd: 64 byte products per instruction), which the
// XNNPACK of Debian 12 lacks (its int8 kernels widen to 16 bits, half the rate). See int8_network.h.
#include "int8_network.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define GFP_HAS_VNNI_CODE 1
#define VNNI_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
#else
#define GFP_HAS_VNNI_CODE 0
#endif

int gfp_vnni_available(void) {
#if GFP_HAS_VNNI_CODE
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni");
#else
    return 0;
#endif
}

size_t gfp_pointwise_packed_bytes(size_t output_channels, size_t input_channels) {
    return (output_channels + 15) / 16 * input_channels * 16;
}

void gfp_pointwise_pack(const int8_t *weights, size_t output_channels, size_t input_channels, int8_t *packed) {
    const size_t blocks = (output_channels + 15) / 16, groups = input_channels / 4;
    memset(packed, 0, gfp_pointwise_packed_bytes(output_channels, input_channels));
    for (size_t b = 0; b < blocks; b++) {
        for (size_t g = 0; g < groups; g++) {
            for (size_t j = 0; j < 16 && b * 16 + j < output_channels; j++) {
                memcpy(packed + ((b * groups + g) * 16 + j) * 4, weights + (b * 16 + j) * input_channels + g * 4, 4);
            }
        }
    }
}

#if GFP_HAS_VNNI_CODE
/// `rows` pixels × `blocks` blocks of 16 output channels. Inputs are int8; each 4-byte group is flipped
/// to unsigned (x + 128) for vpdpbusd, which the bias has already paid for.
static inline VNNI_TARGET __attribute__((always_inline)) void tile(
    int rows, int blocks, const int8_t *x, size_t input_channels, const int8_t *packed, int8_t *y,
    size_t output_channels, size_t first_channel, const gfp_pointwise *p) {
    const size_t groups = input_channels / 4;
    __m512i acc[6][4];
    for (int c = 0; c < blocks; c++) {
        const __m512i bias = _mm512_loadu_si512(p->bias + first_channel + 16 * c);
        for (int r = 0; r < rows; r++) acc[r][c] = bias;
    }
    const __m512i flip = _mm512_set1_epi32((int)0x80808080u);
    for (size_t g = 0; g < groups; g++) {
        __m512i w[4];
        for (int c = 0; c < blocks; c++) w[c] = _mm512_load_si512(packed + ((size_t)c * groups + g) * 64);
        for (int r = 0; r < rows; r++) {
            int32_t word;
            memcpy(&word, x + (size_t)r * input_channels + g * 4, 4);
            const __m512i u = _mm512_xor_si512(_mm512_set1_epi32(word), flip);
            for (int c = 0; c < blocks; c++) acc[r][c] = _mm512_dpbusd_epi32(acc[r][c], u, w[c]);
        }
    }
    const __m512i zero_point = _mm512_set1_epi32(p->output_zero_point);
    const __m512i low = _mm512_set1_epi32(p->output_min), high = _mm512_set1_epi32(p->output_max);
    for (int c = 0; c < blocks; c++) {
        const size_t o = first_channel + 16 * (size_t)c;
        const __m512 multiplier = _mm512_loadu_ps(p->multiplier + o);
        const __mmask16 mask = output_channels - o >= 16 ? 0xFFFF : (__mmask16)((1u << (output_channels - o)) - 1);
        for (int r = 0; r < rows; r++) {
            __m512i v = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_cvtepi32_ps(acc[r][c]), multiplier));
            v = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(v, zero_point), low), high);
            _mm512_mask_cvtsepi32_storeu_epi8(y + (size_t)r * output_channels + o, mask, v);
        }
    }
}

static VNNI_TARGET void run_vnni(const gfp_pointwise *p, const int8_t *x, int8_t *y) {
    const size_t blocks = (p->output_channels + 15) / 16, stride = p->input_channels / 4 * 64;
    size_t pixel = 0;
    for (; pixel + 6 <= p->pixels; pixel += 6) {
        const int8_t *in = x + pixel * p->input_channels;
        int8_t *out = y + pixel * p->output_channels;
        size_t b = 0;
        for (; b + 4 <= blocks; b += 4) {
            tile(6, 4, in, p->input_channels, p->packed + b * stride, out, p->output_channels, b * 16, p);
        }
        for (; b < blocks; b++) {
            tile(6, 1, in, p->input_channels, p->packed + b * stride, out, p->output_channels, b * 16, p);
        }
    }
    for (; pixel < p->pixels; pixel++) {
        for (size_t b = 0; b < blocks; b++) {
            tile(1, 1, x + pixel * p->input_channels, p->input_channels, p->packed + b * stride,
                 y + pixel * p->output_channels, p->output_channels, b * 16, p);
        }
    }
}
#endif

#if GFP_HAS_VNNI_CODE
/// `blocks` (1...4) blocks of 16 classifier outputs from output `first`.
static inline VNNI_TARGET __attribute__((always_inline)) void classifier_blocks(
    int blocks, const gfp_classifier *k, size_t first, float scale, float *logits) {
    const size_t groups = k->input_channels / 4;
    __m512i acc[4];
    for (int c = 0; c < blocks; c++) acc[c] = _mm512_loadu_si512(k->offset + first + 16 * c);
    const __m512i flip = _mm512_set1_epi32((int)0x80808080u);
    const int8_t *packed = k->packed + first / 16 * groups * 64;
    for (size_t g = 0; g < groups; g++) {
        int32_t word;
        memcpy(&word, k->codes + g * 4, 4);
        const __m512i u = _mm512_xor_si512(_mm512_set1_epi32(word), flip);
        for (int c = 0; c < blocks; c++) {
            acc[c] = _mm512_dpbusd_epi32(acc[c], u, _mm512_load_si512(packed + ((size_t)c * groups + g) * 64));
        }
    }
    for (int c = 0; c < blocks; c++) {
        const size_t o = first + 16 * (size_t)c;
        const __mmask16 mask = k->output_channels - o >= 16 ? 0xFFFF : (__mmask16)((1u << (k->output_channels - o)) - 1);
        const __m512 step = _mm512_mul_ps(_mm512_set1_ps(scale), _mm512_loadu_ps(k->weight_scales + o));
        const __m512 value = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[c]), step, _mm512_loadu_ps(k->bias + o));
        _mm512_mask_storeu_ps(logits + o, mask, value);
    }
}

static VNNI_TARGET void classify_vnni(const gfp_classifier *k, const float *embedding, float *logits) {
    float peak = 0;
    for (size_t i = 0; i < k->input_channels; i++) peak = fmaxf(peak, fabsf(embedding[i]));
    const float scale = peak > 0 ? peak / 127.0f : 1.0f;
    for (size_t i = 0; i < k->input_channels; i++) k->codes[i] = (int8_t)lrintf(embedding[i] / scale);
    const size_t blocks = (k->output_channels + 15) / 16;
    size_t b = 0;
    for (; b + 4 <= blocks; b += 4) classifier_blocks(4, k, b * 16, scale, logits);
    for (; b < blocks; b++) classifier_blocks(1, k, b * 16, scale, logits);
}
#endif

void gfp_classifier_run(const gfp_classifier *classifier, const float *embedding, float *logits) {
#if GFP_HAS_VNNI_CODE
    classify_vnni(classifier, embedding, logits);
#else
    (void)classifier;
    (void)embedding;
    (void)logits;
#endif
}

void gfp_pointwise_run(const gfp_pointwise *pointwise, const int8_t *input, int8_t *output) {
#if GFP_HAS_VNNI_CODE
    run_vnni(pointwise, input, output);
#else
    (void)pointwise;
    (void)input;
    (void)output;
#endif
}
