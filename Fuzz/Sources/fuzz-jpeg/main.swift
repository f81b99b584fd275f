// Feeds JPEG files to ImageDecoder (libjpeg-turbo through CGlimpseCodecs): full size, and scaled down
// with DCT scaling as the daemon decodes queries. Input not sniffed as JPEG is skipped (fuzz-png covers
// PNG). Checks the limits, the sizes, and that both decodes agree on whether the data is good.
import FuzzSupport
import GlimpseImage

FuzzTarget.run { bytes in
    guard ImageDecoder.format(of: bytes) == .jpeg else { return }
    let full = DecodeChecks.decode(bytes, options: DecodeChecks.full, as: .jpeg)
    let small = DecodeChecks.decode(bytes, options: DecodeChecks.small, as: .jpeg)
    FuzzCheck.require((full == nil) == (small == nil),
                      "the full-size decode \(full == nil ? "failed" : "succeeded") but the scaled one did not")
    if let full, let small {
        FuzzCheck.require(full.orientation == small.orientation && full.sourceWidth == small.sourceWidth
                              && full.sourceHeight == small.sourceHeight,
                          "the two decodes read different headers")
    }
}
