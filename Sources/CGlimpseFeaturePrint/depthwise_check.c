// One int8 depthwise convolution run both on the VNNI kernel (depthwise_vnni.c) and on XNNPACK's qs8
// operator, for the tests that hold the kernel to XNNPACK's bytes (see CGlimpseFeaturePrint.h).
#include "int8_network.h"

#include <stdlib.h>
#include <string.h>

#include <xnnpack.h>

/// `bytes` zeroed bytes, 64-byte aligned, with XNN_EXTRA_BYTES to spare; NULL when out of memory.
static void *zeroed(size_t bytes) {
    bytes = (bytes + XNN_EXTRA_BYTES + 63) & ~(size_t)63;
    void *buffer = aligned_alloc(64, bytes);
    if (buffer != NULL) memset(buffer, 0, bytes);
    return buffer;
}

/// XNNPACK's depthwise operator over `input` (with room to over-read) into `output`.
static gfp_status run_xnnpack(const gfp_depthwise_case *c, const int8_t *input, const int8_t *weights,
                              const int32_t *bias, const float *weight_scales, int8_t *output) {
    xnn_operator_t op = NULL;
    enum xnn_status status = xnn_create_convolution2d_nhwc_qc8(
        0, 0, 0, 0, c->kernel, c->kernel, c->stride, c->stride, 1, 1, c->channels, 1, 1, c->channels, c->channels,
        (int8_t)c->input_zero_point, c->input_scale, weight_scales, weights, bias, (int8_t)c->output_zero_point,
        c->output_scale, (int8_t)c->output_min, (int8_t)c->output_max,
        XNN_FLAG_DEPTHWISE_CONVOLUTION | (c->same_padding ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0), &op);
    if (status == xnn_status_success) {
        status = xnn_setup_convolution2d_nhwc_qc8(op, 1, c->height, c->width, input, output, NULL);
    }
    if (status == xnn_status_success) status = xnn_run_operator(op, NULL);
    if (op != NULL) xnn_delete_operator(op);
    return status == xnn_status_success ? GFP_OK : GFP_RUNTIME_FAILED;
}

gfp_status gfp_depthwise_compare(const gfp_depthwise_case *c, const int8_t *input, const int8_t *weights,
                                 const int32_t *bias, const float *weight_scales, size_t output_capacity,
                                 int8_t *vnni_output, int8_t *xnnpack_output) {
    if (!gfp_vnni_available()) return GFP_UNSUPPORTED_HARDWARE;
    if (xnn_initialize(NULL) != xnn_status_success) return GFP_UNSUPPORTED_HARDWARE;
    const size_t k = c->kernel, s = c->stride;
    if (k == 0 || s == 0 || c->channels == 0 || (!c->same_padding && (c->height < k || c->width < k))) {
        return GFP_INVALID_NETWORK;
    }
    const gfp_shape in = {c->height, c->width, c->channels};
    const gfp_shape out = {
        c->same_padding ? (uint32_t)((c->height + s - 1) / s) : (uint32_t)((c->height - k) / s + 1),
        c->same_padding ? (uint32_t)((c->width + s - 1) / s) : (uint32_t)((c->width - k) / s + 1), c->channels};
    const size_t input_bytes = (size_t)in.height * in.width * in.channels;
    if ((size_t)out.height * out.width * out.channels > output_capacity) return GFP_INVALID_NETWORK;
    const gfp_layer layer = {.kind = GFP_DEPTHWISE_CONVOLUTION, .same_padding = c->same_padding,
                             .kernel_height = c->kernel, .kernel_width = c->kernel, .stride_height = c->stride,
                             .stride_width = c->stride, .input_channels = c->channels,
                             .output_channels = c->channels, .output_scale = c->output_scale,
                             .output_zero_point = c->output_zero_point};
    if (!gfp_depthwise_fits(&layer, in, out)) return GFP_INVALID_NETWORK;
    gfp_depthwise d = gfp_depthwise_shape(&layer, in, out);
    d.input_zero_point = (int16_t)c->input_zero_point;
    d.output_zero_point = c->output_zero_point;
    d.output_min = c->output_min;
    d.output_max = c->output_max;
    int8_t *copy = zeroed(input_bytes);
    int16_t *packed = zeroed(gfp_depthwise_packed_bytes(d.channels, d.kernel_height, d.kernel_width));
    int32_t *packed_bias = zeroed(d.blocks * 32 * sizeof(int32_t));
    float *multiplier = zeroed(d.blocks * 32 * sizeof(float));
    d.pairs = zeroed(gfp_depthwise_scratch_bytes(&d));
    gfp_status result = GFP_OUT_OF_MEMORY;
    if (copy != NULL && packed != NULL && packed_bias != NULL && multiplier != NULL && d.pairs != NULL) {
        memcpy(copy, input, input_bytes);
        gfp_depthwise_pack(weights, bias, weight_scales, c->input_scale, c->output_scale, &d, packed, packed_bias,
                           multiplier);
        gfp_depthwise_run(&d, copy, vnni_output);
        result = run_xnnpack(c, copy, weights, bias, weight_scales, xnnpack_output);
    }
    free(copy);
    free(packed);
    free(packed_bias);
    free(multiplier);
    free(d.pairs);
    return result;
}
