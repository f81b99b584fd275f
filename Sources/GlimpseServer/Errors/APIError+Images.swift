import GlimpseImage
import HTTPTypes

extension APIError {
    /// 413 `image_too_large` with a message.
    static func imageTooLarge(_ message: String) -> APIError {
        APIError(.contentTooLarge, code: "image_too_large", message: message)
    }

    /// The client error for an image the decoder refused.
    static func imageRejected(_ error: ImageDecodingError) -> APIError {
        switch error {
        case .empty:
            return .badRequest("empty_body", error.description)
        case .unsupportedFormat:
            return APIError(.unsupportedMediaType, code: "unsupported_image_format", message: error.description)
        case let .inputTooLarge(byteCount, limit):
            return .imageTooLarge("the image is \(byteCount) bytes, more than this daemon's \(limit)-byte limit; send a smaller file")
        case let .tooLarge(width, height, maxPixels, maxDimension):
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            let count = overflow ? "more than \(Int.max)" : "\(pixels)"
            return .imageTooLarge(
                "the image declares \(width)×\(height) = \(count) pixels; this daemon accepts at most \(maxPixels) "
                    + "pixels and \(maxDimension) pixels a side: resize the image first"
            )
        case let .tooManyScans(limit):
            return .imageTooLarge(
                "the JPEG has more than \(limit) scans, which makes decoding needlessly slow; re-encode it "
                    + "(baseline or a standard progressive script)"
            )
        case .outOfMemory:
            return .imageTooLarge("decoding the image needs more memory than this daemon allows; send a smaller image")
        case .truncated, .corrupt, .unsupportedContent, .invalidDimensions:
            return APIError(.unprocessableContent, code: "bad_image", message: error.description)
        case .unreadableFile, .invalidOptions:
            return APIError(.internalServerError, code: "decoder_misconfigured", message: error.description)
        }
    }
}

extension APIRoutes {
    /// Refuses, before decoding, a JPEG whose frame header declares a side larger than the decoder
    /// accepts (libjpeg itself stops at 65,500 and would call the file corrupt).
    static func checkDeclaredJPEGSize(_ bytes: [UInt8], limits: DecodingLimits) throws(APIError) {
        guard let (width, height) = JPEGFrameSize.declared(in: bytes) else { return }
        if width > limits.maxDimension || height > limits.maxDimension {
            throw APIError.imageTooLarge(
                "the JPEG declares \(width)×\(height) pixels; a side may be at most \(limits.maxDimension) pixels: "
                    + "send a smaller image"
            )
        }
    }
}
