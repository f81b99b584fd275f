#ifndef CDECODE_REFERENCE_H
#define CDECODE_REFERENCE_H
/*
 * The reference for the decode benchmark: plain C decode loops over the same libjpeg and libpng
 * calls GlimpseImage makes, compiled in the same build. Each call allocates its output with
 * malloc, decodes, and frees it, as a caller of a decoder would.
 */
#include <stddef.h>
#include <stdint.h>

/* What one reference decode produced: size, a checksum of the pixels (so the work cannot be
 * optimised away), and 0 on success. */
typedef struct {
    int status;
    uint32_t width;
    uint32_t height;
    uint64_t checksum;
} reference_decode_result;

/* JPEG to RGB (gray stays gray) at DCT scale 1/scale_denom (1, 2, 4 or 8). */
reference_decode_result reference_jpeg_decode(const unsigned char *data, size_t length, int scale_denom);

/* PNG to 8-bit gray/RGB/RGBA; when `factor` > 1, then box-averaged by factor × factor blocks
 * (the size must be divisible by factor). */
reference_decode_result reference_png_decode(const unsigned char *data, size_t length, int factor);

#endif
