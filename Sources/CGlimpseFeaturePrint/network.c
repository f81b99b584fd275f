// The feature-print network on XNNPACK's subgraph API (see CGlimpseFeaturePrint.h).
#include "CGlimpseFeaturePrint.h"
#include "int8_network.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xnnpack.h>

/// External value ids of the XNNPACK subgraph: the caller's buffers.
enum { EXTERNAL_INPUT = 0, EXTERNAL_EMBEDDING = 1, EXTERNAL_LOGITS = 2, EXTERNAL_COUNT = 3 };

struct gfp_network {
    xnn_runtime_t runtime;
    /// The layer-by-layer int8 network (VNNI 1×1 convolutions), when it runs instead of the runtime.
    gfp_int8_network *int8;
    float *input;
    int8_t *quantized_input;
    float *embedding;
    float *logits;
};

static void say(char *message, size_t capacity, const char *format, ...) {
    if (message == NULL || capacity == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, capacity, format, arguments);
    va_end(arguments);
}

/// A float buffer of `count` values plus the XNN_EXTRA_BYTES XNNPACK may read past the end, 64-byte
/// aligned and zeroed.
static float *allocate_floats(size_t count) {
    size_t bytes = count * sizeof(float) + XNN_EXTRA_BYTES;
    bytes = (bytes + 63) & ~(size_t)63;
    float *buffer = aligned_alloc(64, bytes);
    if (buffer != NULL) memset(buffer, 0, bytes);
    return buffer;
}

/// An int8 buffer of `count` values plus XNN_EXTRA_BYTES, 64-byte aligned and zeroed.
static int8_t *allocate_bytes(size_t count) {
    size_t bytes = (count + XNN_EXTRA_BYTES + 63) & ~(size_t)63;
    int8_t *buffer = aligned_alloc(64, bytes);
    if (buffer != NULL) memset(buffer, 0, bytes);
    return buffer;
}

static size_t element_count(gfp_shape shape) {
    return (size_t)shape.height * shape.width * shape.channels;
}

/// Defines an fp32 tensor; `data` is static data or NULL.
static enum xnn_status define_tensor(xnn_subgraph_t subgraph, size_t rank, const size_t *dims, const void *data,
                                     uint32_t external_id, uint32_t flags, uint32_t *id) {
    return xnn_define_tensor_value(subgraph, xnn_datatype_fp32, rank, dims, data, external_id, flags, id);
}

/// Defines an activation tensor: int8 with `scale` and `zero_point` when `scale` > 0, else fp32.
static enum xnn_status define_value(xnn_subgraph_t subgraph, const size_t *dims, float scale, int32_t zero_point,
                                    uint32_t external_id, uint32_t flags, uint32_t *id) {
    if (scale > 0) {
        return xnn_define_quantized_tensor_value(subgraph, xnn_datatype_qint8, zero_point, scale, 4, dims, NULL,
                                                 external_id, flags, id);
    }
    return define_tensor(subgraph, 4, dims, NULL, external_id, flags, id);
}

/// Defines the int8 filter and int32 bias of a quantised layer reading a value of scale `input_scale`;
/// `bias_scales` is room for output_channels floats that must live until the runtime is created.
static enum xnn_status define_quantized_parameters(xnn_subgraph_t subgraph, const gfp_layer *layer,
                                                   float input_scale, float *bias_scales, uint32_t *filter,
                                                   uint32_t *bias) {
    const size_t oc = layer->output_channels, ic = layer->input_channels;
    const size_t kh = layer->kernel_height, kw = layer->kernel_width;
    const int depthwise = layer->kind == GFP_DEPTHWISE_CONVOLUTION;
    const size_t filter_dims[4] = {depthwise ? 1 : oc, kh, kw, depthwise ? oc : ic};
    const size_t bias_dims[1] = {oc};
    for (size_t c = 0; c < oc; c++) bias_scales[c] = input_scale * layer->weight_scales[c];
    enum xnn_status status = xnn_define_channelwise_quantized_tensor_value(
        subgraph, xnn_datatype_qcint8, layer->weight_scales, 4, depthwise ? 3 : 0, filter_dims,
        layer->quantized_weights, XNN_INVALID_VALUE_ID, 0, filter);
    if (status != xnn_status_success) return status;
    return xnn_define_channelwise_quantized_tensor_value(subgraph, xnn_datatype_qcint32, bias_scales, 1, 0,
                                                         bias_dims, layer->quantized_bias, XNN_INVALID_VALUE_ID, 0,
                                                         bias);
}

/// Defines the subgraph's tensors and nodes for `description`; fills `ids` (value id to XNNPACK id) and
/// `scales` (value id to its int8 scale, 0 for f32). `bias_scales` has room for the output channels of
/// every layer.
static gfp_status define_network(const gfp_network_description *d, xnn_subgraph_t subgraph, uint32_t *ids,
                                 float *scales, float *bias_scales, char *message, size_t capacity) {
    for (uint32_t v = 0; v < d->value_count; v++) {
        ids[v] = XNN_INVALID_VALUE_ID;
        scales[v] = 0;
    }
    {
        const size_t dims[4] = {1, d->shapes[0].height, d->shapes[0].width, d->shapes[0].channels};
        scales[0] = d->input_scale > 0 ? d->input_scale : 0;
        if (define_value(subgraph, dims, scales[0], d->input_zero_point, EXTERNAL_INPUT,
                         XNN_VALUE_FLAG_EXTERNAL_INPUT, &ids[0]) != xnn_status_success) {
            say(message, capacity, "XNNPACK refused the input value of shape %ux%ux%u", d->shapes[0].height,
                d->shapes[0].width, d->shapes[0].channels);
            return GFP_INVALID_NETWORK;
        }
    }
    for (uint32_t i = 0; i < d->layer_count; i++) {
        const gfp_layer *layer = &d->layers[i];
        const gfp_shape out = d->shapes[layer->output];
        uint32_t external = XNN_INVALID_VALUE_ID, flags = 0;
        if (layer->output == d->embedding_value) {
            external = EXTERNAL_EMBEDDING;
            flags = XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
        } else if (layer->output == d->logits_value) {
            external = EXTERNAL_LOGITS;
            flags = XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
        }
        const size_t out_dims[4] = {1, out.height, out.width, out.channels};
        const int quantized = layer->output_scale > 0;
        if (quantized && layer->kind != GFP_CONVOLUTION && layer->kind != GFP_DEPTHWISE_CONVOLUTION
            && layer->kind != GFP_ADD) {
            say(message, capacity, "layer %u of kind %u cannot write an int8 value", i, layer->kind);
            return GFP_INVALID_NETWORK;
        }
        if (quantized && (scales[layer->input] <= 0
                          || (layer->kind == GFP_ADD && scales[layer->input2] <= 0))) {
            say(message, capacity, "layer %u writes an int8 value but reads an f32 one", i);
            return GFP_INVALID_NETWORK;
        }
        if (!quantized && layer->kind != GFP_GLOBAL_AVERAGE_POOL && scales[layer->input] > 0) {
            say(message, capacity, "layer %u writes an f32 value but reads an int8 one", i);
            return GFP_INVALID_NETWORK;
        }
        if (define_value(subgraph, out_dims, quantized ? layer->output_scale : 0, layer->output_zero_point,
                         external, flags, &ids[layer->output]) != xnn_status_success) {
            say(message, capacity, "XNNPACK refused the output value %u of layer %u", layer->output, i);
            return GFP_INVALID_NETWORK;
        }
        scales[layer->output] = quantized ? layer->output_scale : 0;
        const float lo = layer->relu6 ? 0.0f : -INFINITY;
        const float hi = layer->relu6 ? 6.0f : INFINITY;
        const uint32_t padding_flag = layer->same_padding ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0;
        uint32_t input = ids[layer->input];
        uint32_t filter = XNN_INVALID_VALUE_ID, bias = XNN_INVALID_VALUE_ID;
        enum xnn_status status = xnn_status_success;
        const size_t oc = layer->output_channels, ic = layer->input_channels;
        const size_t kh = layer->kernel_height, kw = layer->kernel_width;
        if (quantized && layer->kind != GFP_ADD) {
            status = define_quantized_parameters(subgraph, layer, scales[layer->input], bias_scales, &filter, &bias);
            bias_scales += layer->output_channels;
            if (status != xnn_status_success) {
                say(message, capacity, "XNNPACK refused the int8 weights of layer %u (status %d)", i, (int)status);
                return GFP_INVALID_NETWORK;
            }
        } else if (layer->kind == GFP_CONVOLUTION || layer->kind == GFP_DEPTHWISE_CONVOLUTION
            || layer->kind == GFP_FULLY_CONNECTED) {
            size_t filter_dims[4];
            size_t rank = 4;
            if (layer->kind == GFP_CONVOLUTION) {
                filter_dims[0] = oc; filter_dims[1] = kh; filter_dims[2] = kw; filter_dims[3] = ic;
            } else if (layer->kind == GFP_DEPTHWISE_CONVOLUTION) {
                filter_dims[0] = 1; filter_dims[1] = kh; filter_dims[2] = kw; filter_dims[3] = oc;
            } else {
                filter_dims[0] = oc; filter_dims[1] = ic;
                rank = 2;
            }
            const size_t bias_dims[1] = {oc};
            status = define_tensor(subgraph, rank, filter_dims, layer->weights, XNN_INVALID_VALUE_ID, 0, &filter);
            if (status == xnn_status_success) {
                status = define_tensor(subgraph, 1, bias_dims, layer->bias, XNN_INVALID_VALUE_ID, 0, &bias);
            }
            if (status != xnn_status_success) {
                say(message, capacity, "XNNPACK refused the weights of layer %u (status %d)", i, (int)status);
                return GFP_INVALID_NETWORK;
            }
        }
        switch (layer->kind) {
        case GFP_CONVOLUTION:
            status = xnn_define_convolution_2d(subgraph, 0, 0, 0, 0, layer->kernel_height, layer->kernel_width,
                                               layer->stride_height, layer->stride_width, 1, 1, 1, ic, oc, lo, hi,
                                               input, filter, bias, ids[layer->output], padding_flag);
            break;
        case GFP_DEPTHWISE_CONVOLUTION:
            status = xnn_define_depthwise_convolution_2d(subgraph, 0, 0, 0, 0, layer->kernel_height,
                                                         layer->kernel_width, layer->stride_height,
                                                         layer->stride_width, 1, 1, 1, oc, lo, hi, input, filter,
                                                         bias, ids[layer->output], padding_flag);
            break;
        case GFP_ADD:
            status = xnn_define_add2(subgraph, lo, hi, input, ids[layer->input2], ids[layer->output], 0);
            break;
        case GFP_GLOBAL_AVERAGE_POOL:
            if (scales[layer->input] > 0) {
                // An int8 value is pooled in f32, so the embedding is not rounded to 8 bits.
                const gfp_shape in = d->shapes[layer->input];
                const size_t in_dims[4] = {1, in.height, in.width, in.channels};
                uint32_t converted = XNN_INVALID_VALUE_ID;
                status = define_tensor(subgraph, 4, in_dims, NULL, XNN_INVALID_VALUE_ID, 0, &converted);
                if (status == xnn_status_success) status = xnn_define_convert(subgraph, input, converted, 0);
                if (status != xnn_status_success) {
                    say(message, capacity, "XNNPACK refused the conversion to f32 before layer %u (status %d)", i,
                        (int)status);
                    return GFP_INVALID_NETWORK;
                }
                input = converted;
            }
            status = xnn_define_global_average_pooling_2d(subgraph, lo, hi, input, ids[layer->output], 0);
            break;
        case GFP_FULLY_CONNECTED:
            status = xnn_define_fully_connected(subgraph, lo, hi, input, filter, bias, ids[layer->output], 0);
            break;
        default:
            say(message, capacity, "layer %u has unknown kind %u", i, layer->kind);
            return GFP_INVALID_NETWORK;
        }
        if (status != xnn_status_success) {
            say(message, capacity, "XNNPACK refused layer %u of kind %u (status %d)", i, layer->kind, (int)status);
            return GFP_INVALID_NETWORK;
        }
    }
    return GFP_OK;
}

/// Whether an int8 network runs on the VNNI kernels (see `gfp_int8_engine`).
static int runs_hand_written_int8(uint32_t engine) {
    if (engine == GFP_INT8_ENGINE_XNNPACK) return 0;
#if !defined(__OPTIMIZE__)
    if (engine == GFP_INT8_ENGINE_AUTOMATIC) return 0;
#endif
    return gfp_vnni_available();
}

gfp_status gfp_network_create(const gfp_network_description *d, gfp_network **network, char *message,
                              size_t capacity) {
    *network = NULL;
    say(message, capacity, "");
    if (d->value_count == 0 || d->embedding_value >= d->value_count
        || (d->logits_value != GFP_NO_VALUE && d->logits_value >= d->value_count)) {
        say(message, capacity, "the embedding or logits value is out of range");
        return GFP_INVALID_NETWORK;
    }
    enum xnn_status status = xnn_initialize(NULL);
    if (status == xnn_status_unsupported_hardware) {
        say(message, capacity, "XNNPACK does not support this processor");
        return GFP_UNSUPPORTED_HARDWARE;
    }
    if (status != xnn_status_success) {
        say(message, capacity, "XNNPACK failed to initialise (status %d)", (int)status);
        return status == xnn_status_out_of_memory ? GFP_OUT_OF_MEMORY : GFP_RUNTIME_FAILED;
    }
    size_t channel_total = 0;
    for (uint32_t i = 0; i < d->layer_count; i++) channel_total += d->layers[i].output_channels;
    gfp_network *n = calloc(1, sizeof(gfp_network));
    uint32_t *ids = malloc(sizeof(uint32_t) * d->value_count);
    float *scales = malloc(sizeof(float) * d->value_count);
    float *bias_scales = malloc(sizeof(float) * (channel_total + 1));
    if (n == NULL || ids == NULL || scales == NULL || bias_scales == NULL) {
        free(n);
        free(ids);
        free(scales);
        free(bias_scales);
        say(message, capacity, "out of memory");
        return GFP_OUT_OF_MEMORY;
    }
    if (d->input_scale > 0) {
        n->quantized_input = allocate_bytes(element_count(d->shapes[0]));
    } else {
        n->input = allocate_floats(element_count(d->shapes[0]));
    }
    n->embedding = allocate_floats(element_count(d->shapes[d->embedding_value]));
    if (d->logits_value != GFP_NO_VALUE) n->logits = allocate_floats(element_count(d->shapes[d->logits_value]));
    if ((n->input == NULL && n->quantized_input == NULL) || n->embedding == NULL
        || (d->logits_value != GFP_NO_VALUE && n->logits == NULL)) {
        free(ids);
        free(scales);
        free(bias_scales);
        gfp_network_destroy(n);
        say(message, capacity, "out of memory");
        return GFP_OUT_OF_MEMORY;
    }

    if (d->input_scale > 0 && runs_hand_written_int8(d->int8_engine)) {
        free(ids);
        free(scales);
        free(bias_scales);
        gfp_status result = gfp_int8_network_create(d, 1, n->quantized_input, n->embedding, n->logits, &n->int8,
                                                    message, capacity);
        if (result != GFP_OK) {
            gfp_network_destroy(n);
            return result;
        }
        *network = n;
        return GFP_OK;
    }
    xnn_subgraph_t subgraph = NULL;
    status = xnn_create_subgraph(EXTERNAL_COUNT, 0, &subgraph);
    if (status != xnn_status_success) {
        free(ids);
        free(scales);
        free(bias_scales);
        gfp_network_destroy(n);
        say(message, capacity, "XNNPACK failed to create a subgraph (status %d)", (int)status);
        return status == xnn_status_out_of_memory ? GFP_OUT_OF_MEMORY : GFP_RUNTIME_FAILED;
    }
    gfp_status result = define_network(d, subgraph, ids, scales, bias_scales, message, capacity);
    free(ids);
    free(scales);
    if (result == GFP_OK) {
        // No thread pool: every run stays on the calling thread.
        status = xnn_create_runtime_v2(subgraph, NULL, 0, &n->runtime);
        if (status != xnn_status_success) {
            n->runtime = NULL;
            say(message, capacity, "XNNPACK failed to create its runtime (status %d)", (int)status);
            result = status == xnn_status_out_of_memory ? GFP_OUT_OF_MEMORY : GFP_RUNTIME_FAILED;
        }
    }
    xnn_delete_subgraph(subgraph);
    free(bias_scales); // read while the runtime is created (the weights are packed then)
    if (result == GFP_OK) {
        void *input = n->quantized_input != NULL ? (void *)n->quantized_input : (void *)n->input;
        struct xnn_external_value externals[EXTERNAL_COUNT] = {
            {EXTERNAL_INPUT, input}, {EXTERNAL_EMBEDDING, n->embedding}, {EXTERNAL_LOGITS, n->logits}};
        const size_t count = d->logits_value != GFP_NO_VALUE ? 3 : 2;
        status = xnn_setup_runtime(n->runtime, count, externals);
        if (status != xnn_status_success) {
            say(message, capacity, "XNNPACK failed to set up its runtime (status %d)", (int)status);
            result = GFP_RUNTIME_FAILED;
        }
    }
    if (result != GFP_OK) {
        gfp_network_destroy(n);
        return result;
    }
    *network = n;
    return GFP_OK;
}

float *gfp_network_input(gfp_network *network) { return network->input; }

int8_t *gfp_network_quantized_input(gfp_network *network) { return network->quantized_input; }

const float *gfp_network_embedding(const gfp_network *network) { return network->embedding; }

const float *gfp_network_logits(const gfp_network *network) { return network->logits; }

gfp_status gfp_network_run(gfp_network *network) {
    if (network->int8 != NULL) return gfp_int8_network_run(network->int8);
    return xnn_invoke_runtime(network->runtime) == xnn_status_success ? GFP_OK : GFP_RUNTIME_FAILED;
}

void gfp_network_destroy(gfp_network *network) {
    if (network == NULL) return;
    if (network->runtime != NULL) xnn_delete_runtime(network->runtime);
    gfp_int8_network_destroy(network->int8);
    free(network->input);
    free(network->quantized_input);
    free(network->embedding);
    free(network->logits);
    free(network);
}
