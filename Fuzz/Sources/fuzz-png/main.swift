// Feeds PNG files to ImageDecoder (libpng through CGlimpseCodecs): full size, and scaled down (area
// average) and turned upright. Input not sniffed as PNG is skipped (fuzz-jpeg covers JPEG).
import FuzzSupport
import GlimpseImage

FuzzTarget.run { bytes in
    guard ImageDecoder.format(of: bytes) == .png else { return }
    let full = DecodeChecks.decode(bytes, options: DecodeChecks.full, as: .png)
    let small = DecodeChecks.decode(bytes, options: DecodeChecks.small, as: .png)
    FuzzCheck.require((full == nil) == (small == nil),
                      "the full-size decode \(full == nil ? "failed" : "succeeded") but the scaled one did not")
}
