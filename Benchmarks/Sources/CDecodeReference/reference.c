/* Plain libjpeg / libpng decode loops: the reference the decode benchmark compares against. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <png.h>
#include "CDecodeReference.h"

static uint64_t checksum(const unsigned char *pixels, size_t count) {
    uint64_t sum = 0;
    for (size_t i = 0; i < count; i += 4096) sum += pixels[i];
    return sum + count;
}

/* ---- JPEG ---- */

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
} reference_jpeg_error;

static void reference_jpeg_exit(j_common_ptr cinfo) {
    reference_jpeg_error *err = (reference_jpeg_error *)cinfo->err;
    longjmp(err->jump, 1);
}

static void reference_jpeg_message(j_common_ptr cinfo, int level) { (void)cinfo; (void)level; }

reference_decode_result reference_jpeg_decode(const unsigned char *data, size_t length, int scale_denom) {
    reference_decode_result result = {1, 0, 0, 0};
    struct jpeg_decompress_struct cinfo;
    reference_jpeg_error err;
    unsigned char *volatile pixels = NULL;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = reference_jpeg_exit;
    err.pub.emit_message = reference_jpeg_message;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        return result;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)scale_denom;
    cinfo.out_color_space = cinfo.jpeg_color_space == JCS_GRAYSCALE ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
    pixels = malloc(stride * cinfo.output_height);
    if (pixels == NULL) longjmp(err.jump, 1);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels + (size_t)cinfo.output_scanline * stride;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    result.status = 0;
    result.width = cinfo.output_width;
    result.height = cinfo.output_height;
    result.checksum = checksum(pixels, stride * cinfo.output_height);
    jpeg_destroy_decompress(&cinfo);
    free(pixels);
    return result;
}

/* ---- PNG ---- */

typedef struct {
    const unsigned char *data;
    size_t length;
    size_t offset;
} reference_png_source;

static void reference_png_read(png_structp png, png_bytep out, size_t count) {
    reference_png_source *source = (reference_png_source *)png_get_io_ptr(png);
    if (count > source->length - source->offset) png_error(png, "PNG data ended early");
    memcpy(out, source->data + source->offset, count);
    source->offset += count;
}

static unsigned char *box_average(const unsigned char *pixels, uint32_t width, uint32_t height, int channels,
                                  int factor) {
    uint32_t out_width = width / (uint32_t)factor, out_height = height / (uint32_t)factor;
    size_t samples = (size_t)out_width * (size_t)channels;
    unsigned char *out = malloc(samples * out_height);
    uint32_t *sums = malloc(samples * sizeof(uint32_t));
    if (out == NULL || sums == NULL) {
        free(out);
        free(sums);
        return NULL;
    }
    uint32_t count = (uint32_t)(factor * factor);
    size_t stride = (size_t)width * (size_t)channels;
    for (uint32_t y = 0; y < out_height; y++) {
        memset(sums, 0, samples * sizeof(uint32_t));
        for (int r = 0; r < factor; r++) {
            const unsigned char *row = pixels + ((size_t)y * factor + r) * stride;
            for (size_t x = 0; x < out_width; x++) {
                for (int k = 0; k < factor; k++) {
                    for (int c = 0; c < channels; c++) sums[x * channels + c] += *row++;
                }
            }
        }
        for (size_t i = 0; i < samples; i++) out[(size_t)y * samples + i] = (unsigned char)((sums[i] + count / 2) / count);
    }
    free(sums);
    return out;
}

reference_decode_result reference_png_decode(const unsigned char *data, size_t length, int factor) {
    reference_decode_result result = {1, 0, 0, 0};
    reference_png_source source = {data, length, 0};
    unsigned char *volatile pixels = NULL;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (png == NULL) return result;
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return result;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        return result;
    }
    png_set_read_fn(png, &source, reference_png_read);
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    int depth = png_get_bit_depth(png, info), color = png_get_color_type(png, info);
    int trns = png_get_valid(png, info, PNG_INFO_tRNS) ? 1 : 0;
    if (depth == 16) png_set_scale_16(png);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (trns) png_set_tRNS_to_alpha(png);
    if (color == PNG_COLOR_TYPE_GRAY_ALPHA || (color == PNG_COLOR_TYPE_GRAY && trns)) png_set_gray_to_rgb(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    int channels = png_get_channels(png, info);
    size_t stride = png_get_rowbytes(png, info);
    pixels = malloc(stride * height);
    if (pixels == NULL) png_error(png, "out of memory");
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < height; y++) png_read_row(png, pixels + (size_t)y * stride, NULL);
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    if (factor > 1) {
        unsigned char *small = box_average(pixels, width, height, channels, factor);
        free(pixels);
        pixels = NULL;
        if (small == NULL) return result;
        width /= (png_uint_32)factor;
        height /= (png_uint_32)factor;
        result.checksum = checksum(small, (size_t)width * height * channels);
        free(small);
    } else {
        result.checksum = checksum(pixels, stride * height);
        free(pixels);
    }
    result.status = 0;
    result.width = width;
    result.height = height;
    return result;
}
