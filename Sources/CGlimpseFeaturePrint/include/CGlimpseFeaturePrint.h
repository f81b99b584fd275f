// The feature-print network on XNNPACK: builds an XNNPACK subgraph from a validated layer list and
// runs it on the calling thread, in 32-bit floats or in signed 8-bit integers (per-channel weights).
//
// The only C that calls XNNPACK. A network owns one XNNPACK runtime and its input and output
// buffers, allocated once at creation; running it allocates nothing. A network is used by one
// thread at a time. The weights and biases the layers point to must stay valid and unchanged until
// the network is destroyed (XNNPACK may read them for as long as its runtime lives).
#ifndef CGLIMPSE_FEATUREPRINT_H
#define CGLIMPSE_FEATUREPRINT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Layer kinds, as numbered in the model file.
enum {
    GFP_CONVOLUTION = 1,
    GFP_DEPTHWISE_CONVOLUTION = 2,
    GFP_ADD = 3,
    GFP_GLOBAL_AVERAGE_POOL = 4,
    GFP_FULLY_CONNECTED = 5,
};

/// "No value": the second input of a layer that has one input, or a network without logits.
#define GFP_NO_VALUE UINT32_MAX

/// One layer. Weight layouts: convolution O×kH×kW×I, depthwise kH×kW×C, fully connected O×I;
/// `weights` and `bias` are NULL for add and pool.
///
/// Quantised layers (`output_scale` > 0: convolution, depthwise and add) read and write int8 values
/// (real = (q - zero point) × scale) and take `quantized_weights` (int8, symmetric per output channel,
/// `weight_scales` one per output channel) and `quantized_bias` (int32, scale input scale × weight
/// scale) instead of `weights` and `bias`. Float layers (`output_scale` 0) write f32 values; a global
/// average pool of an int8 value converts it to f32 first.
typedef struct gfp_layer {
    uint32_t kind;
    /// 0: none, 1: ReLU6 (clamp to 0...6).
    uint32_t relu6;
    /// 1: TensorFlow "SAME" padding (total max((ceil(in/s)-1)*s + k - in, 0), the smaller half before).
    uint32_t same_padding;
    uint32_t input;
    uint32_t input2;
    uint32_t output;
    uint32_t kernel_height;
    uint32_t kernel_width;
    uint32_t stride_height;
    uint32_t stride_width;
    uint32_t input_channels;
    uint32_t output_channels;
    const float *weights;
    const float *bias;
    const int8_t *quantized_weights;
    const float *weight_scales;
    const int32_t *quantized_bias;
    /// 0: the output is f32; otherwise the int8 output's scale.
    float output_scale;
    int32_t output_zero_point;
} gfp_layer;

/// The height, width and channels of one value (tensors are 1×H×W×C, NHWC).
typedef struct gfp_shape {
    uint32_t height;
    uint32_t width;
    uint32_t channels;
} gfp_shape;

/// A network to build. Value 0 is the input; every layer's inputs are value 0 or outputs of earlier
/// layers (the caller has checked this, and every shape).
typedef struct gfp_network_description {
    const gfp_layer *layers;
    uint32_t layer_count;
    /// `value_count` shapes, indexed by value id; shapes of values no layer produces are ignored.
    const gfp_shape *shapes;
    uint32_t value_count;
    uint32_t embedding_value;
    /// GFP_NO_VALUE when the network has no logits.
    uint32_t logits_value;
    /// 0: the input is f32; otherwise it is int8 with this scale and zero point.
    float input_scale;
    int32_t input_zero_point;
    /// For an int8 network, one of `gfp_int8_engine`: which code runs it.
    uint32_t int8_engine;
} gfp_network_description;

/// Which code runs an int8 network.
typedef enum gfp_int8_engine {
    /// Layer by layer with the 1×1 and depthwise convolutions on the AVX-512 VNNI kernels of this library
    /// (XNNPACK's int8 kernels here do not use VNNI) when the processor has them and this library was
    /// compiled with optimisation; otherwise as one XNNPACK subgraph. Compiled without optimisation (a
    /// debug build) the hand-written kernels run several times slower than XNNPACK, a prebuilt library.
    GFP_INT8_ENGINE_AUTOMATIC = 0,
    /// Always as one XNNPACK subgraph.
    GFP_INT8_ENGINE_XNNPACK = 1,
    /// On the VNNI kernels whenever the processor has them, even in a build without optimisation (tests
    /// compare the two engines).
    GFP_INT8_ENGINE_HAND_WRITTEN = 2,
} gfp_int8_engine;

typedef enum gfp_status {
    GFP_OK = 0,
    /// XNNPACK does not run on this processor.
    GFP_UNSUPPORTED_HARDWARE = 1,
    GFP_OUT_OF_MEMORY = 2,
    /// XNNPACK refused a value or a layer (the message says which).
    GFP_INVALID_NETWORK = 3,
    /// XNNPACK failed to create, set up or run its runtime.
    GFP_RUNTIME_FAILED = 4,
} gfp_status;

typedef struct gfp_network gfp_network;

/// Builds the network. On failure `*network` is NULL and, when `message_capacity` > 0, `message`
/// holds a NUL-terminated sentence saying what failed.
gfp_status gfp_network_create(const gfp_network_description *description, gfp_network **network,
                              char *message, size_t message_capacity);

/// The input buffer: height × width × channels floats of value 0, NHWC, written by the caller
/// before each run; NULL when the input is int8. Valid until the network is destroyed.
float *gfp_network_input(gfp_network *network);

/// The int8 input buffer (height × width × channels, NHWC) when the description gave an input
/// scale, else NULL. Valid until the network is destroyed.
int8_t *gfp_network_quantized_input(gfp_network *network);

/// The embedding (channels of the embedding value) written by the last run.
const float *gfp_network_embedding(const gfp_network *network);

/// The logits written by the last run, or NULL when the network has none.
const float *gfp_network_logits(const gfp_network *network);

/// Runs the network on the calling thread over the current input.
gfp_status gfp_network_run(gfp_network *network);

/// Frees the runtime and the buffers. NULL is allowed.
void gfp_network_destroy(gfp_network *network);

/// One int8 depthwise convolution for gfp_depthwise_compare: a height × width × channels input (NHWC), a
/// square kernel and stride, TensorFlow SAME padding (1) or none (0), and the int8 grids and clamps.
typedef struct gfp_depthwise_case {
    uint32_t height, width, channels, kernel, stride, same_padding;
    float input_scale, output_scale;
    int32_t input_zero_point, output_zero_point, output_min, output_max;
} gfp_depthwise_case;

/// Runs the case on the layer-by-layer engine's AVX-512 VNNI depthwise kernel into `vnni_output` and on
/// XNNPACK's qs8 depthwise operator into `xnnpack_output` (each at least `output_capacity` bytes: output
/// height × width × channels), for tests that check the two agree byte for byte. `weights` are
/// kernel × kernel × channels, `bias` and `weight_scales` one per channel. GFP_UNSUPPORTED_HARDWARE when
/// the processor has no VNNI; GFP_INVALID_NETWORK for an empty shape or a too small output.
gfp_status gfp_depthwise_compare(const gfp_depthwise_case *depthwise_case, const int8_t *input,
                                 const int8_t *weights, const int32_t *bias, const float *weight_scales,
                                 size_t output_capacity, int8_t *vnni_output, int8_t *xnnpack_output);

#ifdef __cplusplus
}
#endif

#endif
