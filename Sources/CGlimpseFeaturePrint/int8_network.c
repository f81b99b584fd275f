// The int8 feature-print network layer by layer (see int8_network.h): the VNNI kernel for 1×1
// convolutions and, over patch rows, for the stem; the VNNI depthwise kernel (depthwise_vnni.c); XNNPACK's
// int8 operators for the adds; the classifier on the VNNI kernel too (its f32 input quantised per run);
// f32 operators for the pool (after converting its int8 input). Every operator is set up once, over
// buffers allocated here, so a run allocates nothing.
#include "int8_network.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xnnpack.h>

enum { STEP_OPERATORS = 1, STEP_POINTWISE = 2, STEP_PATCHES = 3, STEP_CLASSIFIER = 4, STEP_DEPTHWISE = 5 };

/// A small convolution (the stem) as patches: each output pixel's kH × kW × C inputs in a row of
/// `row` bytes (padded to a multiple of 4), then the VNNI 1×1 kernel over the rows.
typedef struct patches {
    size_t input_height, input_width, channels, output_height, output_width;
    size_t kernel_height, kernel_width, stride, padding_top, padding_left, row;
    int8_t zero_point;
    int8_t *rows;
} patches;

typedef struct step {
    int kind;
    xnn_operator_t first, second;
    gfp_pointwise pointwise;
    patches patches;
    gfp_classifier classifier;
    gfp_depthwise depthwise;
    const int8_t *input;
    int8_t *output;
} step;

struct gfp_int8_network {
    step *steps;
    uint32_t step_count;
    void **allocations;
    size_t allocation_count;
    /// The depthwise kernel's scratch, shared by its steps (they run one after another).
    int16_t *pairs;
};

static void say(char *message, size_t capacity, const char *format, ...) {
    if (message == NULL || capacity == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, capacity, format, arguments);
    va_end(arguments);
}

/// `bytes` zeroed bytes, 64-byte aligned, with XNN_EXTRA_BYTES to spare, owned by `n`; NULL when out of memory.
static void *allocate(gfp_int8_network *n, size_t bytes) {
    bytes = (bytes + XNN_EXTRA_BYTES + 63) & ~(size_t)63;
    void *buffer = aligned_alloc(64, bytes);
    if (buffer == NULL) return NULL;
    memset(buffer, 0, bytes);
    n->allocations[n->allocation_count++] = buffer;
    return buffer;
}

/// The int8 code of `real` on a grid of `scale` and `zero_point`, clamped.
static int8_t code(float real, float scale, int32_t zero_point) {
    long q = lrintf(real / scale) + zero_point;
    return (int8_t)(q < -128 ? -128 : q > 127 ? 127 : q);
}

static size_t elements(gfp_shape shape) { return (size_t)shape.height * shape.width * shape.channels; }

/// The VNNI form of a 1×1 convolution over `pixels` rows of `ic` inputs (a multiple of 4; `weights` is
/// output channels × ic) reading a value of `input_scale` and `input_zero_point`.
static gfp_status make_pointwise(gfp_int8_network *n, const gfp_layer *layer, const int8_t *weights, size_t ic,
                                 size_t pixels, float input_scale, int32_t input_zero_point, int8_t low, int8_t high,
                                 gfp_pointwise *p) {
    const size_t oc = layer->output_channels, padded = (oc + 15) / 16 * 16;
    int8_t *packed = allocate(n, gfp_pointwise_packed_bytes(oc, ic));
    int32_t *bias = allocate(n, padded * sizeof(int32_t));
    float *multiplier = allocate(n, padded * sizeof(float));
    if (packed == NULL || bias == NULL || multiplier == NULL) return GFP_OUT_OF_MEMORY;
    gfp_pointwise_pack(weights, oc, ic, packed);
    for (size_t o = 0; o < oc; o++) {
        int32_t sum = 0;
        for (size_t i = 0; i < ic; i++) sum += weights[o * ic + i];
        bias[o] = layer->quantized_bias[o] - (128 + input_zero_point) * sum;
        multiplier[o] = input_scale * layer->weight_scales[o] / layer->output_scale;
    }
    *p = (gfp_pointwise){.pixels = pixels, .input_channels = ic, .output_channels = oc,
                         .packed = packed, .bias = bias, .multiplier = multiplier,
                         .output_zero_point = layer->output_zero_point, .output_min = low, .output_max = high};
    return GFP_OK;
}

/// A depthwise convolution on the VNNI kernel, its weights packed here, over the network's shared scratch.
static gfp_status make_depthwise(gfp_int8_network *n, const gfp_layer *layer, gfp_shape in, gfp_shape out,
                                 float in_scale, int32_t in_zero, int8_t low, int8_t high, step *s) {
    gfp_depthwise d = gfp_depthwise_shape(layer, in, out);
    d.input_zero_point = (int16_t)in_zero;
    d.output_zero_point = layer->output_zero_point;
    d.output_min = low;
    d.output_max = high;
    d.pairs = n->pairs;
    int16_t *packed = allocate(n, gfp_depthwise_packed_bytes(d.channels, d.kernel_height, d.kernel_width));
    int32_t *bias = allocate(n, d.blocks * 32 * sizeof(int32_t));
    float *multiplier = allocate(n, d.blocks * 32 * sizeof(float));
    if (packed == NULL || bias == NULL || multiplier == NULL || d.pairs == NULL) return GFP_OUT_OF_MEMORY;
    gfp_depthwise_pack(layer->quantized_weights, layer->quantized_bias, layer->weight_scales, in_scale,
                       layer->output_scale, &d, packed, bias, multiplier);
    s->kind = STEP_DEPTHWISE;
    s->depthwise = d;
    return GFP_OK;
}

/// A small convolution as patch rows and the VNNI 1×1 kernel.
static gfp_status make_patches(gfp_int8_network *n, const gfp_layer *layer, gfp_shape in, gfp_shape out,
                               float in_scale, int32_t in_zero, int8_t low, int8_t high, step *s) {
    const size_t k = layer->kernel_height, taps = k * k * layer->input_channels, row = (taps + 3) / 4 * 4;
    const size_t oc = layer->output_channels, pixels = (size_t)out.height * out.width;
    int8_t *weights = allocate(n, oc * row);
    s->patches = (patches){.input_height = in.height, .input_width = in.width, .channels = in.channels,
                           .output_height = out.height, .output_width = out.width, .kernel_height = k,
                           .kernel_width = k, .stride = layer->stride_height,
                           .padding_top = gfp_same_padding_before(in.height, k, layer->stride_height),
                           .padding_left = gfp_same_padding_before(in.width, k, layer->stride_width), .row = row,
                           .zero_point = (int8_t)in_zero, .rows = allocate(n, pixels * row)};
    if (weights == NULL || s->patches.rows == NULL) return GFP_OUT_OF_MEMORY;
    for (size_t o = 0; o < oc; o++) memcpy(weights + o * row, layer->quantized_weights + o * taps, taps);
    return make_pointwise(n, layer, weights, row, pixels, in_scale, in_zero, low, high, &s->pointwise);
}

/// Writes each output pixel's patch (taps outside the image hold the zero point) as one row.
static void gather_patches(const patches *p, const int8_t *x) {
    const size_t c = p->channels, span = p->kernel_width * c;
    int8_t *row = p->rows;
    for (size_t oy = 0; oy < p->output_height; oy++) {
        for (size_t ox = 0; ox < p->output_width; ox++, row += p->row) {
            int8_t *at = row;
            const long left = (long)(ox * p->stride) - (long)p->padding_left;
            const int inside = left >= 0 && left + (long)p->kernel_width <= (long)p->input_width;
            for (size_t ky = 0; ky < p->kernel_height; ky++) {
                const long iy = (long)(oy * p->stride + ky) - (long)p->padding_top;
                const int row_inside = iy >= 0 && iy < (long)p->input_height;
                if (row_inside && inside) {
                    const int8_t *source = x + ((size_t)iy * p->input_width + (size_t)left) * c;
                    span == 9 ? memcpy(at, source, 9) : memcpy(at, source, span);  // 9: the stem's, inlined
                    at += span;
                    continue;
                }
                for (size_t kx = 0; kx < p->kernel_width; kx++, at += c) {
                    const long ix = left + (long)kx;
                    if (row_inside && ix >= 0 && ix < (long)p->input_width) {
                        memcpy(at, x + ((size_t)iy * p->input_width + (size_t)ix) * c, c);
                    } else {
                        memset(at, p->zero_point, c);
                    }
                }
            }
        }
    }
}

/// The fully connected classifier on the VNNI kernel (its int8 weights and scales from the file).
static gfp_status make_classifier(gfp_int8_network *n, const gfp_layer *layer, step *s) {
    const size_t oc = layer->output_channels, ic = layer->input_channels, padded = (oc + 15) / 16 * 16;
    int8_t *packed = allocate(n, gfp_pointwise_packed_bytes(oc, ic));
    int32_t *offset = allocate(n, padded * sizeof(int32_t));
    float *scales = allocate(n, padded * sizeof(float)), *bias = allocate(n, padded * sizeof(float));
    int8_t *codes = allocate(n, ic);
    if (packed == NULL || offset == NULL || scales == NULL || bias == NULL || codes == NULL) return GFP_OUT_OF_MEMORY;
    gfp_pointwise_pack(layer->quantized_weights, oc, ic, packed);
    for (size_t o = 0; o < oc; o++) {
        int32_t sum = 0;
        for (size_t i = 0; i < ic; i++) sum += layer->quantized_weights[o * ic + i];
        offset[o] = -128 * sum;
        scales[o] = layer->weight_scales[o];
        bias[o] = layer->bias[o];
    }
    s->kind = STEP_CLASSIFIER;
    s->classifier = (gfp_classifier){.input_channels = ic, .output_channels = oc, .packed = packed, .offset = offset,
                                     .weight_scales = scales, .bias = bias, .codes = codes};
    return GFP_OK;
}

/// Creates and sets up the operators of layer `i` into `s`; `buffers`, `scales` and `zero_points` are
/// per value (scale 0: f32).
static gfp_status define_step(gfp_int8_network *n, const gfp_network_description *d, uint32_t i, int vnni,
                              void **buffers, float *scales, int32_t *zero_points, step *s, char *message,
                              size_t capacity) {
    const gfp_layer *layer = &d->layers[i];
    const gfp_shape in = d->shapes[layer->input], out = d->shapes[layer->output];
    const float in_scale = scales[layer->input], out_scale = layer->output_scale;
    const int32_t in_zero = zero_points[layer->input], out_zero = layer->output_zero_point;
    const int int8_in = in_scale > 0, int8_out = out_scale > 0;
    const int int8_layer = layer->kind == GFP_CONVOLUTION || layer->kind == GFP_DEPTHWISE_CONVOLUTION
        || layer->kind == GFP_ADD;
    if (int8_layer != int8_out || (int8_layer && (!int8_in || (layer->kind == GFP_ADD && scales[layer->input2] <= 0)))
        || (layer->kind == GFP_FULLY_CONNECTED && int8_in)) {
        say(message, capacity, "layer %u of kind %u reads or writes values of the wrong precision", i, layer->kind);
        return GFP_INVALID_NETWORK;
    }
    const int8_t low = int8_out && layer->relu6 ? code(0.0f, out_scale, out_zero) : -128;
    const int8_t high = int8_out && layer->relu6 ? code(6.0f, out_scale, out_zero) : 127;
    s->kind = STEP_OPERATORS;
    s->input = buffers[layer->input];
    s->output = buffers[layer->output];
    enum xnn_status status = xnn_status_success;
    const uint32_t same = layer->same_padding ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0;
    switch (layer->kind) {
    case GFP_CONVOLUTION:
    case GFP_DEPTHWISE_CONVOLUTION: {
        const int depthwise = layer->kind == GFP_DEPTHWISE_CONVOLUTION;
        if (!depthwise && vnni && layer->kernel_height == 1 && layer->kernel_width == 1 && layer->stride_height == 1
            && layer->stride_width == 1 && !layer->same_padding && layer->input_channels % 4 == 0) {
            s->kind = STEP_POINTWISE;
            return make_pointwise(n, layer, layer->quantized_weights, layer->input_channels,
                                  (size_t)in.height * in.width, in_scale, in_zero, low, high, &s->pointwise);
        }
        if (vnni && gfp_depthwise_fits(layer, in, out)) {
            return make_depthwise(n, layer, in, out, in_scale, in_zero, low, high, s);
        }
        const size_t taps = (size_t)layer->kernel_height * layer->kernel_width * layer->input_channels;
        if (!depthwise && vnni && layer->same_padding && layer->stride_height == layer->stride_width
            && layer->kernel_height == layer->kernel_width && taps <= 64) {
            s->kind = STEP_PATCHES;
            return make_patches(n, layer, in, out, in_scale, in_zero, low, high, s);
        }
        status = xnn_create_convolution2d_nhwc_qc8(
            0, 0, 0, 0, layer->kernel_height, layer->kernel_width, layer->stride_height, layer->stride_width, 1, 1,
            depthwise ? layer->output_channels : 1, depthwise ? 1 : layer->input_channels,
            depthwise ? 1 : layer->output_channels, in.channels, out.channels, (int8_t)in_zero, in_scale,
            layer->weight_scales, layer->quantized_weights, layer->quantized_bias, (int8_t)out_zero, out_scale, low,
            high, same | (depthwise ? XNN_FLAG_DEPTHWISE_CONVOLUTION : 0), &s->first);
        if (status == xnn_status_success) {
            status = xnn_setup_convolution2d_nhwc_qc8(s->first, 1, in.height, in.width, s->input, s->output, NULL);
        }
        break;
    }
    case GFP_ADD: {
        const size_t dims[4] = {1, in.height, in.width, in.channels};
        status = xnn_create_add_nd_qs8((int8_t)in_zero, in_scale, (int8_t)zero_points[layer->input2],
                                       scales[layer->input2], (int8_t)out_zero, out_scale, low, high, 0, &s->first);
        if (status == xnn_status_success) {
            status = xnn_setup_add_nd_qs8(s->first, 4, dims, 4, dims, s->input, buffers[layer->input2], s->output,
                                          NULL);
        }
        break;
    }
    case GFP_GLOBAL_AVERAGE_POOL: {
        const float *floats = buffers[layer->input];
        if (int8_in) {
            float *converted = allocate(n, elements(in) * sizeof(float));
            if (converted == NULL) return GFP_OUT_OF_MEMORY;
            status = xnn_create_convert_nc_qs8_f32(in.channels, in.channels, in.channels, in_scale, (int8_t)in_zero,
                                                   0, &s->first);
            if (status == xnn_status_success) {
                status = xnn_setup_convert_nc_qs8_f32(s->first, (size_t)in.height * in.width, s->input, converted,
                                                      NULL);
            }
            floats = converted;
        }
        xnn_operator_t *pool = int8_in ? &s->second : &s->first;
        if (status == xnn_status_success) {
            status = xnn_create_global_average_pooling_nwc_f32(in.channels, in.channels, in.channels,
                                                               layer->relu6 ? 0.0f : -INFINITY,
                                                               layer->relu6 ? 6.0f : INFINITY, 0, pool);
        }
        if (status == xnn_status_success) {
            status = xnn_setup_global_average_pooling_nwc_f32(*pool, 1, (size_t)in.height * in.width, floats,
                                                              buffers[layer->output], NULL);
        }
        break;
    }
    case GFP_FULLY_CONNECTED:
        if (vnni && layer->quantized_weights != NULL && layer->weight_scales != NULL && !layer->relu6
            && layer->input_channels % 4 == 0) {
            return make_classifier(n, layer, s);
        }
        status = xnn_create_fully_connected_nc_f32(layer->input_channels, layer->output_channels,
                                                   layer->input_channels, layer->output_channels, layer->weights,
                                                   layer->bias, layer->relu6 ? 0.0f : -INFINITY,
                                                   layer->relu6 ? 6.0f : INFINITY, 0, &s->first);
        if (status == xnn_status_success) {
            status = xnn_setup_fully_connected_nc_f32(s->first, 1, buffers[layer->input], buffers[layer->output],
                                                      NULL);
        }
        break;
    default:
        say(message, capacity, "layer %u has unknown kind %u", i, layer->kind);
        return GFP_INVALID_NETWORK;
    }
    if (status != xnn_status_success) {
        say(message, capacity, "XNNPACK refused int8 layer %u of kind %u (status %d)", i, layer->kind, (int)status);
        return status == xnn_status_out_of_memory ? GFP_OUT_OF_MEMORY : GFP_INVALID_NETWORK;
    }
    return GFP_OK;
}

gfp_status gfp_int8_network_create(const gfp_network_description *d, int vnni, int8_t *input, float *embedding,
                                   float *logits, gfp_int8_network **network, char *message, size_t capacity) {
    *network = NULL;
    gfp_int8_network *n = calloc(1, sizeof(gfp_int8_network));
    void **buffers = calloc(d->value_count, sizeof(void *));
    float *scales = calloc(d->value_count, sizeof(float));
    int32_t *zero_points = calloc(d->value_count, sizeof(int32_t));
    if (n != NULL) {
        n->steps = calloc(d->layer_count + 1, sizeof(step));
        n->allocations = calloc(d->value_count + 6 * (size_t)d->layer_count + 2, sizeof(void *));
    }
    gfp_status result = GFP_OK;
    if (n == NULL || buffers == NULL || scales == NULL || zero_points == NULL || n->steps == NULL
        || n->allocations == NULL) {
        say(message, capacity, "out of memory");
        result = GFP_OUT_OF_MEMORY;
    }
    if (result == GFP_OK) {
        vnni = vnni && gfp_vnni_available();
        buffers[0] = input;
        scales[0] = d->input_scale;
        zero_points[0] = d->input_zero_point;
        const size_t scratch = vnni ? gfp_depthwise_network_scratch_bytes(d) : 0;
        if (scratch > 0 && (n->pairs = allocate(n, scratch)) == NULL) {
            say(message, capacity, "out of memory");
            result = GFP_OUT_OF_MEMORY;
        }
        for (uint32_t i = 0; i < d->layer_count && result == GFP_OK; i++) {
            const gfp_layer *layer = &d->layers[i];
            const uint32_t v = layer->output;
            scales[v] = layer->output_scale > 0 ? layer->output_scale : 0;
            zero_points[v] = layer->output_zero_point;
            if (v == d->embedding_value) {
                buffers[v] = embedding;
            } else if (v == d->logits_value) {
                buffers[v] = logits;
            } else {
                buffers[v] = allocate(n, elements(d->shapes[v]) * (scales[v] > 0 ? 1 : sizeof(float)));
            }
            if (buffers[v] == NULL) {
                say(message, capacity, "out of memory");
                result = GFP_OUT_OF_MEMORY;
                break;
            }
            result = define_step(n, d, i, vnni, buffers, scales, zero_points, &n->steps[i], message, capacity);
            n->step_count = i + 1;
        }
    }
    free(buffers);
    free(scales);
    free(zero_points);
    if (result != GFP_OK) {
        gfp_int8_network_destroy(n);
        return result;
    }
    *network = n;
    return GFP_OK;
}

gfp_status gfp_int8_network_run(gfp_int8_network *n) {
    for (uint32_t i = 0; i < n->step_count; i++) {
        const step *s = &n->steps[i];
        if (s->kind == STEP_POINTWISE) {
            gfp_pointwise_run(&s->pointwise, s->input, s->output);
            continue;
        }
        if (s->kind == STEP_DEPTHWISE) {
            gfp_depthwise_run(&s->depthwise, s->input, s->output);
            continue;
        }
        if (s->kind == STEP_CLASSIFIER) {
            gfp_classifier_run(&s->classifier, (const float *)(const void *)s->input, (float *)(void *)s->output);
            continue;
        }
        if (s->kind == STEP_PATCHES) {
            gather_patches(&s->patches, s->input);
            gfp_pointwise_run(&s->pointwise, s->patches.rows, s->output);
            continue;
        }
        if (xnn_run_operator(s->first, NULL) != xnn_status_success) return GFP_RUNTIME_FAILED;
        if (s->second != NULL && xnn_run_operator(s->second, NULL) != xnn_status_success) return GFP_RUNTIME_FAILED;
    }
    return GFP_OK;
}

void gfp_int8_network_destroy(gfp_int8_network *n) {
    if (n == NULL) return;
    if (n->steps != NULL) {
        for (uint32_t i = 0; i < n->step_count; i++) {
            if (n->steps[i].first != NULL) xnn_delete_operator(n->steps[i].first);
            if (n->steps[i].second != NULL) xnn_delete_operator(n->steps[i].second);
        }
    }
    if (n->allocations != NULL) {
        for (size_t i = 0; i < n->allocation_count; i++) free(n->allocations[i]);
    }
    free(n->allocations);
    free(n->steps);
    free(n);
}
