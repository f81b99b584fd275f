// The int8 feature-print network, run layer by layer on XNNPACK's int8 operators, with the 1×1 and the
// depthwise convolutions on AVX-512 VNNI kernels where the processor has them (internal to this module).
#ifndef GFP_INT8_NETWORK_H
#define GFP_INT8_NETWORK_H

#include "include/CGlimpseFeaturePrint.h"

#include <stddef.h>
#include <stdint.h>

/// A 1×1, stride-1 int8 convolution for the VNNI kernel: `pixels` × `input_channels` (a multiple of 4)
/// to `pixels` × `output_channels`.
typedef struct gfp_pointwise {
    size_t pixels, input_channels, output_channels;
    /// The weights in 16-channel blocks of 4-byte input groups (gfp_pointwise_pack), 64-byte aligned.
    const int8_t *packed;
    /// Per output channel, padded with zeros to a multiple of 16: the int32 bias minus
    /// (128 + input zero point) × the channel's weight sum, and input scale × weight scale / output scale.
    const int32_t *bias;
    const float *multiplier;
    int32_t output_zero_point, output_min, output_max;
} gfp_pointwise;

/// 1 when this processor runs the VNNI kernel (AVX-512 F, BW, VL and VNNI).
int gfp_vnni_available(void);
size_t gfp_pointwise_packed_bytes(size_t output_channels, size_t input_channels);
void gfp_pointwise_pack(const int8_t *weights, size_t output_channels, size_t input_channels, int8_t *packed);
/// Runs the kernel (only when gfp_vnni_available() is 1).
void gfp_pointwise_run(const gfp_pointwise *pointwise, const int8_t *input, int8_t *output);

/// The fully connected classifier on the VNNI kernel: the f32 embedding is quantised per run (symmetric,
/// scale max |x| / 127) into `codes`, multiplied with the int8 weights, and the f32 logits are
/// sum × embedding scale × weight scale + bias.
typedef struct gfp_classifier {
    size_t input_channels, output_channels;
    const int8_t *packed;
    /// Per output channel, padded with zeros to a multiple of 16: −128 × the weight sum; the weight scale;
    /// the f32 bias.
    const int32_t *offset;
    const float *weight_scales;
    const float *bias;
    /// Room for the quantised embedding (input_channels bytes).
    int8_t *codes;
} gfp_classifier;

/// Runs the classifier (only when gfp_vnni_available() is 1).
void gfp_classifier_run(const gfp_classifier *classifier, const float *embedding, float *logits);

/// An int8 depthwise convolution (one kernel_height × kernel_width filter per channel, TensorFlow SAME
/// or no padding) for the AVX-512 VNNI kernel of depthwise_vnni.c; requantised as XNNPACK's qs8 operator does.
typedef struct gfp_depthwise {
    size_t input_height, input_width, channels, output_height, output_width;
    size_t kernel_height, kernel_width, stride, padding_top, padding_left;
    /// The padded input the kernel reads: (output − 1) × stride + kernel rows and columns.
    size_t rows, columns;
    /// 2 for even strides, which read only the pairs at even columns (stored alone), else 1; the pair
    /// columns stored per row.
    size_t step, stored;
    /// Blocks of 32 channels (the last may be partial).
    size_t blocks;
    int16_t input_zero_point;
    int32_t output_zero_point, output_min, output_max;
    /// Per block, kernel row and pair of kernel columns: 64 int16 (gfp_depthwise_pack), 64-byte aligned.
    const int16_t *packed;
    /// Per block of 32, in the kernel's channel order: the int32 bias, and input scale × weight scale /
    /// output scale; 64-byte aligned.
    const int32_t *bias;
    const float *multiplier;
    /// Scratch of gfp_depthwise_scratch_bytes, 64-byte aligned: a band of one block's padded input as 16-bit pairs.
    int16_t *pairs;
} gfp_depthwise;

/// TensorFlow SAME padding before the input, for one axis.
size_t gfp_same_padding_before(size_t in, size_t kernel, size_t stride);
/// 1 when depthwise `layer` (reading `in`, writing `out`) suits the VNNI kernel: square strides, one
/// filter per channel.
int gfp_depthwise_fits(const gfp_layer *layer, gfp_shape in, gfp_shape out);
/// The shapes of depthwise `layer` for the VNNI kernel; zero points, clamps and buffers still to fill.
gfp_depthwise gfp_depthwise_shape(const gfp_layer *layer, gfp_shape in, gfp_shape out);
size_t gfp_depthwise_packed_bytes(size_t channels, size_t kernel_height, size_t kernel_width);
size_t gfp_depthwise_scratch_bytes(const gfp_depthwise *depthwise);
/// The scratch the depthwise layers of network `description` that fit the kernel need (the largest).
size_t gfp_depthwise_network_scratch_bytes(const gfp_network_description *description);
/// Packs `weights` (kH × kW × C), `bias` and the scales of the shapes already in `depthwise` into `packed`
/// (gfp_depthwise_packed_bytes), `packed_bias` and `multiplier` (blocks × 32 each), and points it at them.
void gfp_depthwise_pack(const int8_t *weights, const int32_t *bias, const float *weight_scales, float input_scale,
                        float output_scale, gfp_depthwise *depthwise, int16_t *packed, int32_t *packed_bias,
                        float *multiplier);
/// Runs the kernel (only when gfp_vnni_available() is 1).
void gfp_depthwise_run(const gfp_depthwise *depthwise, const int8_t *input, int8_t *output);

typedef struct gfp_int8_network gfp_int8_network;

/// Builds the int8 network of `description` (input_scale > 0) over the caller's input (int8), embedding
/// and logits buffers. `vnni` 0 keeps every layer on XNNPACK.
gfp_status gfp_int8_network_create(const gfp_network_description *description, int vnni, int8_t *input,
                                   float *embedding, float *logits, gfp_int8_network **network, char *message,
                                   size_t capacity);
gfp_status gfp_int8_network_run(gfp_int8_network *network);
void gfp_int8_network_destroy(gfp_int8_network *network);

#endif
