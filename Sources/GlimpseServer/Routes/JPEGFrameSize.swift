/// Reads the size a JPEG's frame header (SOFn) declares, without decoding anything.
///
/// libjpeg refuses a side over 65,500 as a damaged file before the decoder's own size limits are
/// applied; the daemon reads the declared size first so that such a picture is refused as too large.
enum JPEGFrameSize {
    /// The width and height the first frame header of `bytes` declares, or `nil` when `bytes` is not a
    /// JPEG or no frame header is found before the first scan.
    static func declared(in bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 3 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF {  // fill byte
                index += 1
                continue
            }
            // Markers without a length: TEM, RSTn.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                index += 2
                continue
            }
            if marker == 0xD9 || marker == 0xDA { return nil }  // end of image, start of scan
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2 else { return nil }
            // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard length >= 7, index + 8 < bytes.count else { return nil }
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return (width, height)
            }
            index += 2 + length
        }
        return nil
    }
}
