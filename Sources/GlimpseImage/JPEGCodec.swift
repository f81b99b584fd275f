import CGlimpseCodecs

/// JPEG decoding through the libjpeg-turbo shim in CGlimpseCodecs.
enum JPEGCodec {
    /// The strongest DCT scale denominator (8, 4, 2, else 1) whose output keeps a longer side of at
    /// least `target` less the `slack` share of it; libjpeg's scaled size is the ceiling of the side
    /// divided by the denominator.
    static func scaleDenominator(longerSide: Int, target: Int?, slack: Double = 0) -> Int {
        guard let target, target < longerSide else { return 1 }
        let share = slack.isNaN ? 0 : min(0.5, max(0, slack))
        let lowest = Int((Double(target) * (1 - share)).rounded(.up))
        for denominator in [8, 4, 2] where (longerSide + denominator - 1) / denominator >= lowest {
            return denominator
        }
        return 1
    }

    /// libjpeg's working-memory cap for an image within `limits` (progressive files keep all
    /// coefficients: about 2 bytes per sample for up to 4 components).
    static func memoryCap(_ limits: DecodingLimits) -> Int {
        let (perPixel, overflow) = limits.maxPixels.multipliedReportingOverflow(by: 8)
        return overflow ? Int.max / 2 : min(perPixel, Int.max / 2 - (64 << 20)) + (64 << 20)
    }

    static func decode(_ data: UnsafeRawBufferPointer, options: DecodingOptions) throws(ImageDecodingError) -> CodecOutput {
        let limits = options.limits
        guard let base = data.baseAddress, !data.isEmpty else { throw .empty }
        guard let decoder = glimpse_jpeg_create() else {
            throw .outOfMemory(format: .jpeg, message: "cannot allocate a JPEG decoder")
        }
        defer { glimpse_jpeg_destroy(decoder) }
        var result = glimpse_codec_result()
        var header = glimpse_jpeg_header()
        let input = base.assumingMemoryBound(to: UInt8.self)
        let status = glimpse_jpeg_read_header(decoder, input, data.count, memoryCap(limits), &header, &result)
        try CodecSupport.check(status, result, format: .jpeg, limits: limits)
        let width = Int(header.width), height = Int(header.height)
        try CodecSupport.checkSize(format: .jpeg, width: width, height: height, limits: limits)

        // A progressive file's scans are counted up front: a scan bomb costs one pass over its bytes.
        if header.progressive != 0, limits.maxProgressiveScans > 0,
           JPEGScanCounter.count(data, limit: limits.maxProgressiveScans) > limits.maxProgressiveScans {
            throw .tooManyScans(limit: limits.maxProgressiveScans)
        }

        var orientation = 1
        if let exif = header.exif, header.exif_length > 0 {
            orientation = ExifOrientation.parse(UnsafeRawBufferPointer(start: exif, count: header.exif_length)) ?? 1
        }

        let denominator = scaleDenominator(
            longerSide: max(width, height), target: options.maxDimension, slack: options.maxDimensionSlack)
        var outWidth: UInt32 = 0, outHeight: UInt32 = 0
        let sized = glimpse_jpeg_output_size(decoder, Int32(denominator), &outWidth, &outHeight, &result)
        try CodecSupport.check(sized, result, format: .jpeg, limits: limits)

        let gray = header.color_space == Int32(GLIMPSE_JPEG_COLOR_GRAY.rawValue)
        let pixelFormat: PixelFormat = gray ? .gray8 : .rgb8
        let components = Int32(pixelFormat.bytesPerPixel)
        let scans = Int32(clamping: limits.maxProgressiveScans)
        let buffer = try CodecSupport.makeBuffer(
            format: .jpeg, width: Int(outWidth), height: Int(outHeight), pixelFormat: pixelFormat
        ) { (out, stride) throws(ImageDecodingError) in
            guard let target = out.baseAddress else { throw .invalidDimensions(format: .jpeg, width: 0, height: 0) }
            let decoded = glimpse_jpeg_decode(
                decoder, Int32(denominator), scans, 1,
                target.assumingMemoryBound(to: UInt8.self), stride, outWidth, outHeight, components, &result)
            try CodecSupport.check(decoded, result, format: .jpeg, limits: limits)
        }
        return CodecOutput(
            buffer: buffer, sourceWidth: width, sourceHeight: height,
            orientation: orientation, warningCount: Int(result.warning_count))
    }
}
