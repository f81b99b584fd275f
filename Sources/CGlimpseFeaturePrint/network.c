// The feature-print network on XNNPACK's subgraph API (see CGlimpseFeaturePrint.h).
#include "CGlimpseFeaturePrint.h"

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
    float *input;
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

static size_t element_count(gfp_shape shape) {
    return (size_t)shape.height * shape.width * shape.channels;
}

/// Defines an fp32 tensor; `data` is static data or NULL.
static enum xnn_status define_tensor(xnn_subgraph_t subgraph, size_t rank, const size_t *dims, const void *data,
                                     uint32_t external_id, uint32_t flags, uint32_t *id) {
    return xnn_define_tensor_value(subgraph, xnn_datatype_fp32, rank, dims, data, external_id, flags, id);
}

/// Defines the subgraph's tensors and nodes for `description`; fills `ids` (value id to XNNPACK id).
static gfp_status define_network(const gfp_network_description *d, xnn_subgraph_t subgraph, uint32_t *ids,
                                 char *message, size_t capacity) {
    for (uint32_t v = 0; v < d->value_count; v++) ids[v] = XNN_INVALID_VALUE_ID;
    {
        const size_t dims[4] = {1, d->shapes[0].height, d->shapes[0].width, d->shapes[0].channels};
        if (define_tensor(subgraph, 4, dims, NULL, EXTERNAL_INPUT, XNN_VALUE_FLAG_EXTERNAL_INPUT, &ids[0])
            != xnn_status_success) {
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
        if (define_tensor(subgraph, 4, out_dims, NULL, external, flags, &ids[layer->output]) != xnn_status_success) {
            say(message, capacity, "XNNPACK refused the output value %u of layer %u", layer->output, i);
            return GFP_INVALID_NETWORK;
        }
        const float lo = layer->relu6 ? 0.0f : -INFINITY;
        const float hi = layer->relu6 ? 6.0f : INFINITY;
        const uint32_t padding_flag = layer->same_padding ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0;
        const uint32_t input = ids[layer->input];
        uint32_t filter = XNN_INVALID_VALUE_ID, bias = XNN_INVALID_VALUE_ID;
        enum xnn_status status = xnn_status_success;
        const size_t oc = layer->output_channels, ic = layer->input_channels;
        const size_t kh = layer->kernel_height, kw = layer->kernel_width;
        if (layer->kind == GFP_CONVOLUTION || layer->kind == GFP_DEPTHWISE_CONVOLUTION
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
    gfp_network *n = calloc(1, sizeof(gfp_network));
    uint32_t *ids = malloc(sizeof(uint32_t) * d->value_count);
    if (n == NULL || ids == NULL) {
        free(n);
        free(ids);
        say(message, capacity, "out of memory");
        return GFP_OUT_OF_MEMORY;
    }
    n->input = allocate_floats(element_count(d->shapes[0]));
    n->embedding = allocate_floats(element_count(d->shapes[d->embedding_value]));
    if (d->logits_value != GFP_NO_VALUE) n->logits = allocate_floats(element_count(d->shapes[d->logits_value]));
    if (n->input == NULL || n->embedding == NULL || (d->logits_value != GFP_NO_VALUE && n->logits == NULL)) {
        free(ids);
        gfp_network_destroy(n);
        say(message, capacity, "out of memory");
        return GFP_OUT_OF_MEMORY;
    }

    xnn_subgraph_t subgraph = NULL;
    status = xnn_create_subgraph(EXTERNAL_COUNT, 0, &subgraph);
    if (status != xnn_status_success) {
        free(ids);
        gfp_network_destroy(n);
        say(message, capacity, "XNNPACK failed to create a subgraph (status %d)", (int)status);
        return status == xnn_status_out_of_memory ? GFP_OUT_OF_MEMORY : GFP_RUNTIME_FAILED;
    }
    gfp_status result = define_network(d, subgraph, ids, message, capacity);
    free(ids);
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
    if (result == GFP_OK) {
        struct xnn_external_value externals[EXTERNAL_COUNT] = {
            {EXTERNAL_INPUT, n->input}, {EXTERNAL_EMBEDDING, n->embedding}, {EXTERNAL_LOGITS, n->logits}};
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

const float *gfp_network_embedding(const gfp_network *network) { return network->embedding; }

const float *gfp_network_logits(const gfp_network *network) { return network->logits; }

gfp_status gfp_network_run(gfp_network *network) {
    return xnn_invoke_runtime(network->runtime) == xnn_status_success ? GFP_OK : GFP_RUNTIME_FAILED;
}

void gfp_network_destroy(gfp_network *network) {
    if (network == NULL) return;
    if (network->runtime != NULL) xnn_delete_runtime(network->runtime);
    free(network->input);
    free(network->embedding);
    free(network->logits);
    free(network);
}
