/*
 * JPEG decoding through libjpeg-turbo. Every entry point sets its own setjmp; libjpeg's
 * error_exit, emit_message (for corrupt-data warnings) and progress_monitor (scan limit) longjmp
 * back into the entry point that called the library, never further.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>
#include "CGlimpseCodecs.h"

struct glimpse_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr err;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    int created;
    int header_read;
    int failed;
    int stop_on_corrupt_warning;
    /* Single-scan images only: the data running out (libjpeg then supplies an end-of-image marker and
       warns) is not yet truncation, because a file missing only its final marker has every pixel.
       It is remembered in eof_seen; truncation is decided by what follows: any further corrupt-data
       warning or error (the decoder needing bits that are not there) means pixels are missing. */
    int defer_eof;
    int eof_seen;
    int max_scans;
    int status;
    int library_code;
    int warning_count;
    char message[JMSG_LENGTH_MAX];
};

static void set_result(glimpse_codec_result *result, int status, int code, int warnings, const char *message) {
    if (result == NULL) return;
    result->status = status;
    result->library_code = code;
    result->warning_count = warnings;
    result->message[0] = '\0';
    if (message != NULL) {
        snprintf(result->message, sizeof(result->message), "%s", message);
    }
}

static void report(glimpse_jpeg_decoder *d, glimpse_codec_result *result) {
    set_result(result, d->status, d->library_code, d->warning_count, d->message);
}

static void on_error_exit(j_common_ptr cinfo) {
    glimpse_jpeg_decoder *d = (glimpse_jpeg_decoder *)cinfo->client_data;
    int code = cinfo->err->msg_code;
    if (d->eof_seen && code != JERR_OUT_OF_MEMORY && code != JERR_NO_BACKING_STORE) {
        d->status = GLIMPSE_CODEC_TRUNCATED; /* the data ran out first: keep that message */
        longjmp(d->jump, 1);
    }
    d->library_code = code;
    if (code == JERR_OUT_OF_MEMORY || code == JERR_NO_BACKING_STORE) {
        d->status = GLIMPSE_CODEC_OUT_OF_MEMORY;
    } else if (code == JERR_INPUT_EOF || code == JERR_INPUT_EMPTY) {
        d->status = GLIMPSE_CODEC_TRUNCATED;
    } else {
        d->status = GLIMPSE_CODEC_CORRUPT;
    }
    (*cinfo->err->format_message)(cinfo, d->message);
    longjmp(d->jump, 1);
}

static int is_corrupt_warning(int code) {
    return code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER || code == JWRN_HUFF_BAD_CODE ||
           code == JWRN_MUST_RESYNC || code == JWRN_NOT_SEQUENTIAL || code == JWRN_ARITH_BAD_CODE;
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; /* trace messages */
    glimpse_jpeg_decoder *d = (glimpse_jpeg_decoder *)cinfo->client_data;
    int code = cinfo->err->msg_code;
    cinfo->err->num_warnings++;
    d->warning_count++;
    if (d->stop_on_corrupt_warning && is_corrupt_warning(code) && code == JWRN_JPEG_EOF && d->defer_eof &&
        !d->eof_seen) {
        d->eof_seen = 1;
        d->library_code = code; /* the message to report if pixels turn out to be missing */
        (*cinfo->err->format_message)(cinfo, d->message);
        return;
    } else if (d->stop_on_corrupt_warning && is_corrupt_warning(code)) {
        if (d->eof_seen) {
            d->status = GLIMPSE_CODEC_TRUNCATED; /* keep the end-of-file message */
        } else {
            d->library_code = code;
            d->status = code == JWRN_JPEG_EOF ? GLIMPSE_CODEC_TRUNCATED : GLIMPSE_CODEC_CORRUPT;
            (*cinfo->err->format_message)(cinfo, d->message);
        }
        longjmp(d->jump, 1);
    }
    if (d->warning_count == 1) {
        d->library_code = code;
        (*cinfo->err->format_message)(cinfo, d->message);
    }
}

static void on_progress(j_common_ptr cinfo) {
    glimpse_jpeg_decoder *d = (glimpse_jpeg_decoder *)cinfo->client_data;
    if (d->max_scans <= 0 || !cinfo->is_decompressor) return;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->input_scan_number > d->max_scans) {
        d->status = GLIMPSE_CODEC_TOO_MANY_SCANS;
        d->library_code = 0;
        snprintf(d->message, sizeof(d->message), "JPEG has more than %d scans", d->max_scans);
        longjmp(d->jump, 1);
    }
}

glimpse_jpeg_decoder *glimpse_jpeg_create(void) {
    glimpse_jpeg_decoder *d = calloc(1, sizeof(glimpse_jpeg_decoder));
    return d;
}

void glimpse_jpeg_destroy(glimpse_jpeg_decoder *d) {
    if (d == NULL) return;
    if (d->created) jpeg_destroy_decompress(&d->cinfo);
    free(d);
}

static int map_color(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return GLIMPSE_JPEG_COLOR_GRAY;
    case JCS_RGB: return GLIMPSE_JPEG_COLOR_RGB;
    case JCS_YCbCr: return GLIMPSE_JPEG_COLOR_YCBCR;
    case JCS_CMYK: return GLIMPSE_JPEG_COLOR_CMYK;
    case JCS_YCCK: return GLIMPSE_JPEG_COLOR_YCCK;
    default: return GLIMPSE_JPEG_COLOR_OTHER;
    }
}

int glimpse_jpeg_read_header(glimpse_jpeg_decoder *d, const unsigned char *data, size_t length, long max_memory,
                             glimpse_jpeg_header *header, glimpse_codec_result *result) {
    if (d == NULL || data == NULL || header == NULL || length == 0 || d->created) {
        set_result(result, GLIMPSE_CODEC_INVALID_ARGUMENT, 0, 0, "invalid arguments to glimpse_jpeg_read_header");
        return GLIMPSE_CODEC_INVALID_ARGUMENT;
    }
    memset(header, 0, sizeof(*header));
    d->cinfo.err = jpeg_std_error(&d->err);
    d->err.error_exit = on_error_exit;
    d->err.emit_message = on_emit_message;
    d->cinfo.client_data = d;
    d->stop_on_corrupt_warning = 1;
    d->status = GLIMPSE_CODEC_OK;
    if (setjmp(d->jump)) {
        d->failed = 1;
        report(d, result);
        return d->status;
    }
    jpeg_create_decompress(&d->cinfo);
    d->created = 1;
    if (max_memory > 0) d->cinfo.mem->max_memory_to_use = max_memory;
    d->progress.progress_monitor = on_progress;
    d->cinfo.progress = &d->progress;
    jpeg_mem_src(&d->cinfo, data, (unsigned long)length);
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&d->cinfo, TRUE);

    header->width = d->cinfo.image_width;
    header->height = d->cinfo.image_height;
    header->components = d->cinfo.num_components;
    header->color_space = map_color(d->cinfo.jpeg_color_space);
    header->progressive = d->cinfo.progressive_mode ? 1 : 0;
    header->saw_adobe_marker = d->cinfo.saw_Adobe_marker ? 1 : 0;
    for (jpeg_saved_marker_ptr m = d->cinfo.marker_list; m != NULL; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            header->exif = m->data + 6;
            header->exif_length = m->data_length - 6;
            break;
        }
    }
    d->header_read = 1;
    report(d, result);
    return GLIMPSE_CODEC_OK;
}

int glimpse_jpeg_output_size(glimpse_jpeg_decoder *d, int scale_denom, uint32_t *width, uint32_t *height,
                             glimpse_codec_result *result) {
    if (d == NULL || !d->header_read || d->failed || width == NULL || height == NULL ||
        (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8)) {
        set_result(result, GLIMPSE_CODEC_INVALID_ARGUMENT, 0, 0, "invalid arguments to glimpse_jpeg_output_size");
        return GLIMPSE_CODEC_INVALID_ARGUMENT;
    }
    if (setjmp(d->jump)) {
        d->failed = 1;
        report(d, result);
        return d->status;
    }
    d->cinfo.scale_num = 1;
    d->cinfo.scale_denom = (unsigned int)scale_denom;
    jpeg_calc_output_dimensions(&d->cinfo);
    *width = d->cinfo.output_width;
    *height = d->cinfo.output_height;
    report(d, result);
    return GLIMPSE_CODEC_OK;
}

/* CMYK (as libjpeg returns it) to RGB. Adobe files store inverted ink values. */
static void cmyk_row_to_rgb(const JSAMPLE *in, unsigned char *out, JDIMENSION width, int inverted) {
    for (JDIMENSION x = 0; x < width; x++) {
        unsigned c = in[0], m = in[1], y = in[2], k = in[3];
        if (!inverted) {
            c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
        }
        unsigned r = c * k + 128, g = m * k + 128, b = y * k + 128;
        out[0] = (unsigned char)((r + (r >> 8)) >> 8);
        out[1] = (unsigned char)((g + (g >> 8)) >> 8);
        out[2] = (unsigned char)((b + (b >> 8)) >> 8);
        in += 4;
        out += 3;
    }
}

int glimpse_jpeg_decode(glimpse_jpeg_decoder *d, int scale_denom, int max_scans, int stop_on_corrupt_warning,
                        unsigned char *out, size_t stride, uint32_t out_width, uint32_t out_height,
                        int out_components, glimpse_codec_result *result) {
    if (d == NULL || !d->header_read || d->failed || out == NULL ||
        (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8)) {
        set_result(result, GLIMPSE_CODEC_INVALID_ARGUMENT, 0, 0, "invalid arguments to glimpse_jpeg_decode");
        return GLIMPSE_CODEC_INVALID_ARGUMENT;
    }
    J_COLOR_SPACE in_space = d->cinfo.jpeg_color_space;
    J_COLOR_SPACE out_space;
    int components;
    int cmyk = 0;
    switch (in_space) {
    case JCS_GRAYSCALE: out_space = JCS_GRAYSCALE; components = 1; break;
    case JCS_RGB: case JCS_YCbCr: out_space = JCS_RGB; components = 3; break;
    case JCS_CMYK: case JCS_YCCK: out_space = JCS_CMYK; components = 3; cmyk = 1; break;
    default:
        set_result(result, GLIMPSE_CODEC_UNSUPPORTED, 0, d->warning_count,
                   "JPEG colour space with this number of components cannot be converted to RGB");
        return GLIMPSE_CODEC_UNSUPPORTED;
    }
    if (components != out_components || stride < (size_t)out_width * (size_t)components) {
        set_result(result, GLIMPSE_CODEC_INVALID_ARGUMENT, 0, d->warning_count,
                   "output layout does not match the JPEG's colour space");
        return GLIMPSE_CODEC_INVALID_ARGUMENT;
    }
    d->max_scans = max_scans;
    d->stop_on_corrupt_warning = stop_on_corrupt_warning;
    d->eof_seen = 0;
    d->defer_eof = 0;
    if (setjmp(d->jump)) {
        d->failed = 1;
        report(d, result);
        return d->status;
    }
    d->defer_eof = jpeg_has_multiple_scans(&d->cinfo) ? 0 : 1;
    d->cinfo.scale_num = 1;
    d->cinfo.scale_denom = (unsigned int)scale_denom;
    d->cinfo.out_color_space = out_space;
    jpeg_start_decompress(&d->cinfo);
    if (d->cinfo.output_width != out_width || d->cinfo.output_height != out_height) {
        set_result(result, GLIMPSE_CODEC_INVALID_ARGUMENT, 0, d->warning_count,
                   "output size does not match the JPEG's scaled size");
        d->failed = 1;
        return GLIMPSE_CODEC_INVALID_ARGUMENT;
    }
    if (cmyk) {
        int inverted = d->cinfo.saw_Adobe_marker ? 1 : 0;
        JSAMPARRAY row = (*d->cinfo.mem->alloc_sarray)((j_common_ptr)&d->cinfo, JPOOL_IMAGE,
                                                       d->cinfo.output_width * 4, 1);
        while (d->cinfo.output_scanline < d->cinfo.output_height) {
            JDIMENSION y = d->cinfo.output_scanline;
            if (jpeg_read_scanlines(&d->cinfo, row, 1) != 1) break;
            cmyk_row_to_rgb(row[0], out + (size_t)y * stride, d->cinfo.output_width, inverted);
        }
    } else {
        JSAMPROW rows[16];
        while (d->cinfo.output_scanline < d->cinfo.output_height) {
            JDIMENSION y = d->cinfo.output_scanline;
            JDIMENSION count = d->cinfo.output_height - y;
            if (count > 16) count = 16;
            for (JDIMENSION i = 0; i < count; i++) rows[i] = out + (size_t)(y + i) * stride;
            if (jpeg_read_scanlines(&d->cinfo, rows, count) == 0) break;
        }
    }
    if (d->cinfo.output_scanline < d->cinfo.output_height) {
        /* Only reachable with a suspending source; jpeg_mem_src never suspends. */
        d->status = GLIMPSE_CODEC_TRUNCATED;
        snprintf(d->message, sizeof(d->message), "JPEG data ended before the last row");
        d->failed = 1;
        report(d, result);
        return d->status;
    }
    jpeg_finish_decompress(&d->cinfo);
    report(d, result);
    return GLIMPSE_CODEC_OK;
}
