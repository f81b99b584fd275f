import CGlimpseCodecs

/// PNG decoding through the libpng shim in CGlimpseCodecs.
enum PNGCodec {
    static func decode(_ data: UnsafeRawBufferPointer, options: DecodingOptions) throws(ImageDecodingError) -> CodecOutput {
        let limits = options.limits
        guard let base = data.baseAddress, !data.isEmpty else { throw .empty }
        guard let decoder = glimpse_png_create() else {
            throw .outOfMemory(format: .png, message: "cannot allocate a PNG decoder")
        }
        defer { glimpse_png_destroy(decoder) }
        var result = glimpse_codec_result()
        var header = glimpse_png_header()
        let input = base.assumingMemoryBound(to: UInt8.self)
        let status = glimpse_png_read_header(decoder, input, data.count, &header, &result)
        try CodecSupport.check(status, result, format: .png, limits: limits)
        let width = Int(header.width), height = Int(header.height)
        try CodecSupport.checkSize(format: .png, width: width, height: height, limits: limits)
        try checkDataCanFill(width: width, height: height, header: header)

        var orientation = 1
        if let exif = header.exif, header.exif_length > 0 {
            let block = UnsafeRawBufferPointer(start: exif, count: header.exif_length)
            // The chunk holds TIFF data; some writers keep the JPEG-style "Exif\0\0" prefix.
            let prefixed = block.count > 6 && block.prefix(6).elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0])
            orientation = ExifOrientation.parse(prefixed ? UnsafeRawBufferPointer(rebasing: block.dropFirst(6)) : block) ?? 1
        }

        let pixelFormat: PixelFormat
        switch header.channels {
        case 1: pixelFormat = .gray8
        case 3: pixelFormat = .rgb8
        default: pixelFormat = .rgba8
        }
        let buffer = try CodecSupport.makeBuffer(
            format: .png, width: width, height: height, pixelFormat: pixelFormat
        ) { (out, stride) throws(ImageDecodingError) in
            guard let target = out.baseAddress else { throw .invalidDimensions(format: .png, width: 0, height: 0) }
            let decoded = glimpse_png_decode(
                decoder, target.assumingMemoryBound(to: UInt8.self), stride,
                header.width, header.height, header.channels, &result)
            try CodecSupport.check(decoded, result, format: .png, limits: limits)
        }
        return CodecOutput(
            buffer: buffer, sourceWidth: width, sourceHeight: height,
            orientation: orientation, warningCount: Int(result.warning_count))
    }

    /// The most deflate can expand its input: a 258-byte match coded in 2 bits.
    static let maxDeflateRatio = 1032

    /// Refuses, before any pixel memory is allocated, a file whose remaining bytes could not hold its
    /// declared image at any compression (a few bytes declaring 6000 × 6000 would otherwise cost
    /// 108 MB of pixels before libpng finds the data missing).
    static func checkDataCanFill(width: Int, height: Int, header: glimpse_png_header) throws(ImageDecodingError) {
        let (pixels, pixelsOverflow) = width.multipliedReportingOverflow(by: height)
        let (bits, bitsOverflow) = pixels.multipliedReportingOverflow(by: Int(header.source_bits_per_pixel))
        guard !pixelsOverflow, !bitsOverflow else { return }  // the size limits refuse these
        let storedBytes = bits / 8
        let available = Int(header.bytes_after_header)
        guard available < storedBytes / maxDeflateRatio else { return }
        throw .truncated(
            format: .png,
            message: "the header declares \(width) × \(height) pixels, \(storedBytes) bytes stored, but only "
                + "\(available) bytes follow it and deflate expands at most \(maxDeflateRatio):1"
        )
    }
}
