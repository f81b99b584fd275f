import CGlimpseCodecs
@testable import GlimpseImage
import Testing

@Suite("JPEG scan counting")
struct JPEGScanCounterTests {
    @Test("the marker walk counts the scans libjpeg writes, ignoring marker-like bytes in APP data")
    func countsScans() throws {
        let picture = try Synthetic.gradient(width: 40, height: 24)
        // An APP1 body full of bytes that look like SOS markers must not be counted.
        let decoy: [UInt8] = (0..<32).flatMap { _ -> [UInt8] in [0xFF, 0xDA, 0x00, 0x08] }
        let cases: [(progressive: Bool, manyScans: Bool, gray: Bool, scans: Int)] = [
            (false, false, false, 1), (true, false, false, 10), (true, false, true, 6), (false, true, false, 190),
        ]
        for item in cases {
            let components = item.gray ? 1 : 3
            let pixels = item.gray ? picture.converted(to: .gray8).bytes : picture.bytes
            let jpeg = try Encode.jpeg(pixels, width: 40, height: 24, components: components,
                                       progressive: item.progressive, manyScans: item.manyScans, app1: decoy)
            let counted = jpeg.withUnsafeBytes { JPEGScanCounter.count($0, limit: 1000) }
            #expect(counted == item.scans, "\(item)")
            let capped = jpeg.withUnsafeBytes { JPEGScanCounter.count($0, limit: 3) }
            #expect(capped == min(item.scans, 4))
        }
    }

    @Test("the C progress monitor also stops a decode past the scan limit")
    func progressMonitorBackstop() throws {
        let picture = try Synthetic.gradient(width: 64, height: 48)
        let jpeg = try Encode.jpeg(picture, progressive: true)
        let decoder = try #require(glimpse_jpeg_create())
        defer { glimpse_jpeg_destroy(decoder) }
        var result = glimpse_codec_result()
        var header = glimpse_jpeg_header()
        var out = [UInt8](repeating: 0, count: 64 * 48 * 3)
        let status = jpeg.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                guard glimpse_jpeg_read_header(decoder, input.baseAddress, input.count, 0, &header, &result) == 0 else {
                    return Int32(-1)
                }
                return glimpse_jpeg_decode(decoder, 1, 5, 1, output.baseAddress, 64 * 3, 64, 48, 3, &result)
            }
        }
        #expect(header.progressive == 1)
        #expect(status == Int32(GLIMPSE_CODEC_TOO_MANY_SCANS.rawValue))
        #expect(Encode.message(result).contains("more than 5 scans"))
    }
}
