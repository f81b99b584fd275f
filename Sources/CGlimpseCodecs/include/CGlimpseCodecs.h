#ifndef CGLIMPSE_CODECS_H
#define CGLIMPSE_CODECS_H
/*
 * CGlimpseCodecs: the only code that calls libjpeg and libpng.
 *
 * Every entry point installs its own setjmp before calling into the library, so a library error
 * (libjpeg error_exit, libpng png_error) longjmps back into the same C function and never across a
 * Swift frame. Decoders are opaque heap objects: create, read the header, decode, destroy. After an
 * entry point reports an error, only the destroy call is valid on that decoder.
 *
 * No globals: decoders may be used concurrently from different threads (one decoder per thread).
 */
#include <stddef.h>
#include <stdint.h>

/* Status codes returned by every entry point. */
typedef enum {
    GLIMPSE_CODEC_OK = 0,
    /* The library reported a fatal error in the data; the message says which. */
    GLIMPSE_CODEC_CORRUPT = 1,
    /* The data ended before the image did. */
    GLIMPSE_CODEC_TRUNCATED = 2,
    /* A progressive JPEG has more scans than the caller allowed. */
    GLIMPSE_CODEC_TOO_MANY_SCANS = 3,
    /* The library could not get memory within its limit. */
    GLIMPSE_CODEC_OUT_OF_MEMORY = 4,
    /* The caller passed an impossible argument (output size, stride, state). */
    GLIMPSE_CODEC_INVALID_ARGUMENT = 5,
    /* The image is valid but uses a layout this layer does not convert (e.g. a 2-channel JPEG). */
    GLIMPSE_CODEC_UNSUPPORTED = 6
} glimpse_codec_status;

/* The outcome of one call: status, library message code, warnings seen so far, message text. */
typedef struct {
    int status;
    int library_code;
    int warning_count;
    char message[200];
} glimpse_codec_result;

/* ---------------------------------------------------------------------------------------------
 * JPEG (libjpeg-turbo, libjpeg API v62)
 * ------------------------------------------------------------------------------------------- */

/* Colour spaces of a JPEG as stored. */
typedef enum {
    GLIMPSE_JPEG_COLOR_OTHER = 0,
    GLIMPSE_JPEG_COLOR_GRAY = 1,
    GLIMPSE_JPEG_COLOR_RGB = 2,
    GLIMPSE_JPEG_COLOR_YCBCR = 3,
    GLIMPSE_JPEG_COLOR_CMYK = 4,
    GLIMPSE_JPEG_COLOR_YCCK = 5
} glimpse_jpeg_color;

/* What the header says. `exif`/`exif_length` point at the body of the first APP1 "Exif" marker
 * (after the 6-byte "Exif\0\0" prefix), or are NULL/0; they stay valid until destroy. */
typedef struct {
    uint32_t width;
    uint32_t height;
    int components;
    int color_space;           /* glimpse_jpeg_color */
    int progressive;
    int saw_adobe_marker;
    const unsigned char *exif;
    size_t exif_length;
} glimpse_jpeg_header;

typedef struct glimpse_jpeg_decoder glimpse_jpeg_decoder;

/* Allocates a decoder, or returns NULL when memory is exhausted. */
glimpse_jpeg_decoder *glimpse_jpeg_create(void);

/* Reads markers up to the first scan from `data` (which must stay valid until destroy).
 * `max_memory` caps libjpeg's working memory in bytes (0 = library default). */
int glimpse_jpeg_read_header(glimpse_jpeg_decoder *decoder, const unsigned char *data, size_t length,
                             long max_memory, glimpse_jpeg_header *header, glimpse_codec_result *result);

/* The output size for DCT scaling 1/scale_denom (1, 2, 4 or 8), after a successful header read. */
int glimpse_jpeg_output_size(glimpse_jpeg_decoder *decoder, int scale_denom, uint32_t *width, uint32_t *height,
                             glimpse_codec_result *result);

/* Decodes the image at 1/scale_denom into `out` (out_height rows of `stride` bytes, `out_components`
 * bytes per pixel: 1 for a gray JPEG, 3 otherwise; CMYK/YCCK are converted to RGB). The output size
 * must equal glimpse_jpeg_output_size. More than `max_scans` scans (0 = no limit) is an error.
 * `stop_on_corrupt_warning` turns libjpeg's corrupt-data warnings (premature end of file, of data
 * segment, bad Huffman code, resync) into errors. */
int glimpse_jpeg_decode(glimpse_jpeg_decoder *decoder, int scale_denom, int max_scans, int stop_on_corrupt_warning,
                        unsigned char *out, size_t stride, uint32_t out_width, uint32_t out_height,
                        int out_components, glimpse_codec_result *result);

/* Frees the decoder and everything libjpeg allocated. NULL is accepted. */
void glimpse_jpeg_destroy(glimpse_jpeg_decoder *decoder);

/* ---------------------------------------------------------------------------------------------
 * PNG (libpng 1.6, full read API with transforms)
 * ------------------------------------------------------------------------------------------- */

/* What the header says, and the decoded layout: 8 bits per channel, `channels` of 1 (gray),
 * 3 (RGB) or 4 (RGBA: any alpha channel or tRNS chunk; gray+alpha becomes RGBA). */
typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;            /* PNG_COLOR_TYPE_* */
    int interlaced;
    int has_trns;
    int channels;              /* of the decoded output */
    const unsigned char *exif; /* body of an eXIf chunk before IDAT (TIFF data), or NULL; valid until destroy */
    size_t exif_length;
    int source_bits_per_pixel; /* bits per pixel as stored (bit depth x stored channels) */
    size_t bytes_after_header; /* input left after the first IDAT chunk's length and type: an upper
                                  bound on the compressed image data */
} glimpse_png_header;

typedef struct glimpse_png_decoder glimpse_png_decoder;

/* Allocates a decoder, or returns NULL when memory is exhausted. */
glimpse_png_decoder *glimpse_png_create(void);

/* Reads the signature and chunks up to the first IDAT from `data` (valid until destroy), and sets
 * up the transforms to 8-bit gray, RGB or RGBA. */
int glimpse_png_read_header(glimpse_png_decoder *decoder, const unsigned char *data, size_t length,
                            glimpse_png_header *header, glimpse_codec_result *result);

/* Decodes every row (all Adam7 passes) into `out` and reads to IEND. The size and channel count
 * must match the header. */
int glimpse_png_decode(glimpse_png_decoder *decoder, unsigned char *out, size_t stride, uint32_t out_width,
                       uint32_t out_height, int out_channels, glimpse_codec_result *result);

/* Frees the decoder and libpng's state. NULL is accepted. */
void glimpse_png_destroy(glimpse_png_decoder *decoder);

/* ---------------------------------------------------------------------------------------------
 * Encoders, for tests and benchmarks that need images of a known content. The output is
 * allocated with malloc; release it with glimpse_codec_free.
 * ------------------------------------------------------------------------------------------- */

/* Encodes `components` bytes per pixel (1 gray, 3 RGB, 4 CMYK as stored). For 4 components,
 * `ycck` selects YCCK instead of CMYK and `adobe_marker` (0/1) whether an Adobe APP14 marker is
 * written (without it a decoder must treat the ink values as not inverted). `many_scans` writes a
 * progressive file with one scan per component and AC coefficient (1 + 63 × components scans).
 * `app1`, when not NULL, is written as an APP1 marker body. */
int glimpse_jpeg_encode(const unsigned char *pixels, uint32_t width, uint32_t height, size_t stride,
                        int components, int quality, int progressive, int many_scans, int ycck, int adobe_marker,
                        const unsigned char *app1, size_t app1_length,
                        unsigned char **out, size_t *out_length, glimpse_codec_result *result);

/* Encodes rows already in PNG sample layout (packed 1/2/4-bit, big-endian 16-bit) for the given
 * PNG_COLOR_TYPE_* and bit depth. `palette` holds `palette_count` RGB triples; `trns` holds
 * `trns_count` alpha bytes for a palette image; `trns_color` (gray or R, G, B; may be NULL) marks
 * one transparent colour for gray and RGB images; `exif` (may be NULL) is written as an eXIf chunk. */
int glimpse_png_encode(const unsigned char *rows, uint32_t width, uint32_t height, size_t stride,
                       int color_type, int bit_depth, int interlaced,
                       const unsigned char *palette, int palette_count, const unsigned char *trns, int trns_count,
                       const uint16_t *trns_color, const unsigned char *exif, size_t exif_length,
                       unsigned char **out, size_t *out_length, glimpse_codec_result *result);

/* Frees memory returned by the encoders. */
void glimpse_codec_free(void *pointer);

#endif
