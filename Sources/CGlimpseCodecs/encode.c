/*
 * PNG and JPEG encoders used by tests and benchmarks to build images of known content. Like the
 * decoders, every library error longjmps back into the entry point that called the library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <png.h>
#include "CGlimpseCodecs.h"

void glimpse_codec_free(void *pointer) { free(pointer); }

static void encode_result(glimpse_codec_result *result, int status, const char *message) {
    if (result == NULL) return;
    result->status = status;
    result->library_code = 0;
    result->warning_count = 0;
    result->message[0] = '\0';
    if (message != NULL) snprintf(result->message, sizeof(result->message), "%s", message);
}

/* ---- JPEG ---- */

typedef struct {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr err;
    jmp_buf jump;
    unsigned char *buffer;
    unsigned long size;
    jpeg_scan_info *scans;
    int created;
    char message[JMSG_LENGTH_MAX];
} jpeg_encode_context;

static void on_encode_error(j_common_ptr cinfo) {
    jpeg_encode_context *c = (jpeg_encode_context *)cinfo->client_data;
    (*cinfo->err->format_message)(cinfo, c->message);
    longjmp(c->jump, 1);
}

static void on_encode_message(j_common_ptr cinfo, int level) { (void)cinfo; (void)level; }

int glimpse_jpeg_encode(const unsigned char *pixels, uint32_t width, uint32_t height, size_t stride,
                        int components, int quality, int progressive, int many_scans, int ycck, int adobe_marker,
                        const unsigned char *app1, size_t app1_length,
                        unsigned char **out, size_t *out_length, glimpse_codec_result *result) {
    if (pixels == NULL || out == NULL || out_length == NULL || width == 0 || height == 0 ||
        (components != 1 && components != 3 && components != 4) || stride < (size_t)width * components ||
        app1_length > 65533) {
        encode_result(result, GLIMPSE_CODEC_INVALID_ARGUMENT, "invalid arguments to glimpse_jpeg_encode");
        return GLIMPSE_CODEC_INVALID_ARGUMENT;
    }
    jpeg_encode_context *c = calloc(1, sizeof(jpeg_encode_context));
    if (c == NULL) {
        encode_result(result, GLIMPSE_CODEC_OUT_OF_MEMORY, "cannot allocate an encoder");
        return GLIMPSE_CODEC_OUT_OF_MEMORY;
    }
    c->cinfo.err = jpeg_std_error(&c->err);
    c->err.error_exit = on_encode_error;
    c->err.emit_message = on_encode_message;
    c->cinfo.client_data = c;
    if (setjmp(c->jump)) {
        encode_result(result, GLIMPSE_CODEC_CORRUPT, c->message);
        if (c->created) jpeg_destroy_compress(&c->cinfo);
        free(c->buffer);
        free(c->scans);
        free(c);
        return GLIMPSE_CODEC_CORRUPT;
    }
    jpeg_create_compress(&c->cinfo);
    c->created = 1;
    jpeg_mem_dest(&c->cinfo, &c->buffer, &c->size);
    c->cinfo.image_width = width;
    c->cinfo.image_height = height;
    c->cinfo.input_components = components;
    c->cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : components == 3 ? JCS_RGB : JCS_CMYK;
    jpeg_set_defaults(&c->cinfo);
    if (components == 4) {
        jpeg_set_colorspace(&c->cinfo, ycck ? JCS_YCCK : JCS_CMYK);
        c->cinfo.write_Adobe_marker = adobe_marker ? TRUE : FALSE;
    }
    jpeg_set_quality(&c->cinfo, quality, TRUE);
    if (many_scans) {
        int count = 1 + 63 * components;
        c->scans = calloc((size_t)count, sizeof(jpeg_scan_info));
        if (c->scans == NULL) {
            snprintf(c->message, sizeof(c->message), "cannot allocate a scan script");
            longjmp(c->jump, 1);
        }
        c->scans[0].comps_in_scan = components;
        for (int i = 0; i < components; i++) c->scans[0].component_index[i] = i;
        int n = 1;
        for (int comp = 0; comp < components; comp++) {
            for (int k = 1; k < 64; k++, n++) {
                c->scans[n].comps_in_scan = 1;
                c->scans[n].component_index[0] = comp;
                c->scans[n].Ss = k;
                c->scans[n].Se = k;
            }
        }
        c->cinfo.scan_info = c->scans;
        c->cinfo.num_scans = count;
    } else if (progressive) {
        jpeg_simple_progression(&c->cinfo);
    }
    jpeg_start_compress(&c->cinfo, TRUE);
    if (app1 != NULL) jpeg_write_marker(&c->cinfo, JPEG_APP0 + 1, app1, (unsigned int)app1_length);
    while (c->cinfo.next_scanline < c->cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)c->cinfo.next_scanline * stride);
        jpeg_write_scanlines(&c->cinfo, &row, 1);
    }
    jpeg_finish_compress(&c->cinfo);
    jpeg_destroy_compress(&c->cinfo);
    *out = c->buffer;
    *out_length = c->size;
    free(c->scans);
    free(c);
    encode_result(result, GLIMPSE_CODEC_OK, NULL);
    return GLIMPSE_CODEC_OK;
}

/* ---- PNG ---- */

typedef struct {
    png_structp png;
    png_infop info;
    unsigned char *buffer;
    size_t size;
    size_t capacity;
    png_color palette[256];
    char message[200];
} png_encode_context;

static void on_png_encode_error(png_structp png, png_const_charp message) {
    png_encode_context *c = (png_encode_context *)png_get_error_ptr(png);
    snprintf(c->message, sizeof(c->message), "%s", message != NULL ? message : "libpng error");
    png_longjmp(png, 1);
}

static void on_png_encode_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void on_png_write(png_structp png, png_bytep data, size_t length) {
    png_encode_context *c = (png_encode_context *)png_get_io_ptr(png);
    if (length > c->capacity - c->size) {
        size_t capacity = c->capacity ? c->capacity : 4096;
        while (length > capacity - c->size) capacity *= 2;
        unsigned char *grown = realloc(c->buffer, capacity);
        if (grown == NULL) png_error(png, "out of memory growing the PNG output");
        c->buffer = grown;
        c->capacity = capacity;
    }
    memcpy(c->buffer + c->size, data, length);
    c->size += length;
}

static void on_png_flush(png_structp png) { (void)png; }

int glimpse_png_encode(const unsigned char *rows, uint32_t width, uint32_t height, size_t stride,
                       int color_type, int bit_depth, int interlaced,
                       const unsigned char *palette, int palette_count, const unsigned char *trns, int trns_count,
                       const uint16_t *trns_color, const unsigned char *exif, size_t exif_length,
                       unsigned char **out, size_t *out_length, glimpse_codec_result *result) {
    if (rows == NULL || out == NULL || out_length == NULL || width == 0 || height == 0 || palette_count < 0 ||
        palette_count > 256 || trns_count < 0 || trns_count > 256) {
        encode_result(result, GLIMPSE_CODEC_INVALID_ARGUMENT, "invalid arguments to glimpse_png_encode");
        return GLIMPSE_CODEC_INVALID_ARGUMENT;
    }
    png_encode_context *c = calloc(1, sizeof(png_encode_context));
    if (c == NULL) {
        encode_result(result, GLIMPSE_CODEC_OUT_OF_MEMORY, "cannot allocate an encoder");
        return GLIMPSE_CODEC_OUT_OF_MEMORY;
    }
    c->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, c, on_png_encode_error, on_png_encode_warning);
    if (c->png != NULL) c->info = png_create_info_struct(c->png);
    if (c->png == NULL || c->info == NULL) {
        png_destroy_write_struct(&c->png, c->info != NULL ? &c->info : NULL);
        free(c);
        encode_result(result, GLIMPSE_CODEC_OUT_OF_MEMORY, "cannot allocate libpng's write state");
        return GLIMPSE_CODEC_OUT_OF_MEMORY;
    }
    if (setjmp(png_jmpbuf(c->png))) {
        encode_result(result, GLIMPSE_CODEC_CORRUPT, c->message);
        png_destroy_write_struct(&c->png, &c->info);
        free(c->buffer);
        free(c);
        return GLIMPSE_CODEC_CORRUPT;
    }
    png_set_write_fn(c->png, c, on_png_write, on_png_flush);
    png_set_IHDR(c->png, c->info, width, height, bit_depth, color_type,
                 interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (color_type == PNG_COLOR_TYPE_PALETTE && palette != NULL) {
        for (int i = 0; i < palette_count; i++) {
            c->palette[i].red = palette[3 * i];
            c->palette[i].green = palette[3 * i + 1];
            c->palette[i].blue = palette[3 * i + 2];
        }
        png_set_PLTE(c->png, c->info, c->palette, palette_count);
        if (trns != NULL && trns_count > 0) png_set_tRNS(c->png, c->info, trns, trns_count, NULL);
    } else if (trns_color != NULL) {
        png_color_16 color;
        memset(&color, 0, sizeof(color));
        color.gray = trns_color[0];
        color.red = trns_color[0];
        color.green = trns_color[1];
        color.blue = trns_color[2];
        png_set_tRNS(c->png, c->info, NULL, 0, &color);
    }
    if (exif != NULL && exif_length > 0 && exif_length < 0x7fffffff) {
        png_set_eXIf_1(c->png, c->info, (png_uint_32)exif_length, (png_bytep)exif);
    }
    png_write_info(c->png, c->info);
    int passes = png_set_interlace_handling(c->png);
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < height; y++) png_write_row(c->png, rows + (size_t)y * stride);
    }
    png_write_end(c->png, c->info);
    png_destroy_write_struct(&c->png, &c->info);
    *out = c->buffer;
    *out_length = c->size;
    free(c);
    encode_result(result, GLIMPSE_CODEC_OK, NULL);
    return GLIMPSE_CODEC_OK;
}
