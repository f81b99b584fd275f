/*
 * PNG decoding through libpng's full read API. Every entry point sets setjmp(png_jmpbuf(...));
 * png_error (from libpng or from the memory read callback) longjmps back into that entry point.
 * Transforms give 8-bit gray, RGB or RGBA whatever the colour type, bit depth or interlacing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <png.h>
#include "CGlimpseCodecs.h"

struct glimpse_png_decoder {
    png_structp png;
    png_infop info;
    const unsigned char *data;
    size_t length;
    size_t offset;
    int header_read;
    int failed;
    int truncated;
    int passes;
    int channels;
    int status;
    int warning_count;
    char message[200];
};

static void png_set_result(glimpse_codec_result *result, int status, int warnings, const char *message) {
    if (result == NULL) return;
    result->status = status;
    result->library_code = 0;
    result->warning_count = warnings;
    result->message[0] = '\0';
    if (message != NULL) snprintf(result->message, sizeof(result->message), "%s", message);
}

static void png_report(glimpse_png_decoder *d, glimpse_codec_result *result) {
    png_set_result(result, d->status, d->warning_count, d->message);
}

static void on_png_error(png_structp png, png_const_charp message) {
    glimpse_png_decoder *d = (glimpse_png_decoder *)png_get_error_ptr(png);
    const char *text = message != NULL ? message : "unknown libpng error";
    snprintf(d->message, sizeof(d->message), "%s", text);
    if (d->truncated) {
        d->status = GLIMPSE_CODEC_TRUNCATED;
    } else if (strstr(text, "ut of memory") != NULL || strstr(text, "emory limit") != NULL) {
        d->status = GLIMPSE_CODEC_OUT_OF_MEMORY;
    } else {
        d->status = GLIMPSE_CODEC_CORRUPT;
    }
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp message) {
    glimpse_png_decoder *d = (glimpse_png_decoder *)png_get_error_ptr(png);
    d->warning_count++;
    if (d->warning_count == 1 && message != NULL) snprintf(d->message, sizeof(d->message), "%s", message);
}

static void on_png_read(png_structp png, png_bytep out, size_t count) {
    glimpse_png_decoder *d = (glimpse_png_decoder *)png_get_io_ptr(png);
    if (count > d->length - d->offset) {
        d->truncated = 1;
        png_error(png, "PNG data ended early");
    }
    memcpy(out, d->data + d->offset, count);
    d->offset += count;
}

glimpse_png_decoder *glimpse_png_create(void) {
    return calloc(1, sizeof(glimpse_png_decoder));
}

void glimpse_png_destroy(glimpse_png_decoder *d) {
    if (d == NULL) return;
    if (d->png != NULL) png_destroy_read_struct(&d->png, d->info != NULL ? &d->info : NULL, NULL);
    free(d);
}

int glimpse_png_read_header(glimpse_png_decoder *d, const unsigned char *data, size_t length,
                            glimpse_png_header *header, glimpse_codec_result *result) {
    if (d == NULL || data == NULL || header == NULL || d->png != NULL) {
        png_set_result(result, GLIMPSE_CODEC_INVALID_ARGUMENT, 0, "invalid arguments to glimpse_png_read_header");
        return GLIMPSE_CODEC_INVALID_ARGUMENT;
    }
    memset(header, 0, sizeof(*header));
    d->data = data;
    d->length = length;
    d->offset = 0;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d, on_png_error, on_png_warning);
    if (d->png == NULL) {
        png_set_result(result, GLIMPSE_CODEC_OUT_OF_MEMORY, 0, "libpng could not allocate its read state");
        return GLIMPSE_CODEC_OUT_OF_MEMORY;
    }
    d->info = png_create_info_struct(d->png);
    if (d->info == NULL) {
        png_set_result(result, GLIMPSE_CODEC_OUT_OF_MEMORY, 0, "libpng could not allocate its info state");
        return GLIMPSE_CODEC_OUT_OF_MEMORY;
    }
    if (setjmp(png_jmpbuf(d->png))) {
        d->failed = 1;
        png_report(d, result);
        return d->status;
    }
    /* The pixel and dimension limits are enforced by the caller from this header; lift libpng's own
     * 1,000,000-row cap so that every oversized image gets the same typed answer. Chunk limits keep
     * their defaults. */
    png_set_user_limits(d->png, 0x7fffffffU, 0x7fffffffU);
    png_set_read_fn(d->png, d, on_png_read);
    png_read_info(d->png, d->info);

    png_uint_32 width = 0, height = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(d->png, d->info, &width, &height, &depth, &color, &interlace, NULL, NULL);
    int trns = png_get_valid(d->png, d->info, PNG_INFO_tRNS) ? 1 : 0;

    if (depth == 16) png_set_scale_16(d->png);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(d->png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(d->png);
    if (trns) png_set_tRNS_to_alpha(d->png);
    if (color == PNG_COLOR_TYPE_GRAY_ALPHA || (color == PNG_COLOR_TYPE_GRAY && trns)) png_set_gray_to_rgb(d->png);
    d->passes = png_set_interlace_handling(d->png);

    int channels;
    if ((color & PNG_COLOR_MASK_ALPHA) || trns) {
        channels = 4;
    } else if (color == PNG_COLOR_TYPE_GRAY) {
        channels = 1;
    } else {
        channels = 3;
    }
    d->channels = channels;
    header->width = width;
    header->height = height;
    header->bit_depth = depth;
    header->color_type = color;
    header->interlaced = interlace != PNG_INTERLACE_NONE ? 1 : 0;
    header->has_trns = trns;
    header->channels = channels;
    header->source_bits_per_pixel = depth * (int)png_get_channels(d->png, d->info);
    header->bytes_after_header = d->length - d->offset;
    png_bytep exif = NULL;
    png_uint_32 exif_length = 0;
    if (png_get_eXIf_1(d->png, d->info, &exif_length, &exif) != 0 && exif != NULL && exif_length > 0) {
        header->exif = exif;
        header->exif_length = exif_length;
    }
    d->header_read = 1;
    png_report(d, result);
    return GLIMPSE_CODEC_OK;
}

int glimpse_png_decode(glimpse_png_decoder *d, unsigned char *out, size_t stride, uint32_t out_width,
                       uint32_t out_height, int out_channels, glimpse_codec_result *result) {
    if (d == NULL || !d->header_read || d->failed || out == NULL || out_channels != d->channels ||
        stride < (size_t)out_width * (size_t)out_channels) {
        png_set_result(result, GLIMPSE_CODEC_INVALID_ARGUMENT, 0, "invalid arguments to glimpse_png_decode");
        return GLIMPSE_CODEC_INVALID_ARGUMENT;
    }
    if (png_get_image_width(d->png, d->info) != out_width || png_get_image_height(d->png, d->info) != out_height) {
        png_set_result(result, GLIMPSE_CODEC_INVALID_ARGUMENT, 0, "output size does not match the PNG header");
        return GLIMPSE_CODEC_INVALID_ARGUMENT;
    }
    if (setjmp(png_jmpbuf(d->png))) {
        d->failed = 1;
        png_report(d, result);
        return d->status;
    }
    /* Row buffers are sized here, after the caller checked the header against its limits. */
    png_read_update_info(d->png, d->info);
    if (png_get_channels(d->png, d->info) != (png_byte)out_channels || png_get_bit_depth(d->png, d->info) != 8 ||
        png_get_rowbytes(d->png, d->info) != (size_t)out_width * (size_t)out_channels) {
        png_error(d->png, "transformed PNG layout differs from the expected 8-bit layout");
    }
    for (int pass = 0; pass < d->passes; pass++) {
        for (png_uint_32 y = 0; y < out_height; y++) {
            png_read_row(d->png, out + (size_t)y * stride, NULL);
        }
    }
    png_read_end(d->png, NULL);
    png_report(d, result);
    return GLIMPSE_CODEC_OK;
}
