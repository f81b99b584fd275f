/// Counts the scans (SOS markers) of a JPEG by walking its marker segments, so that a
/// progressive file with too many scans is refused before any of them is decoded.
enum JPEGScanCounter {
    /// The number of SOS markers in `data`, counting no further than `limit + 1`. Entropy-coded
    /// data is skipped by its byte stuffing (`FF 00`) and restart markers, so marker-like bytes
    /// inside scans or APP segments are never counted. Malformed structure ends the walk early:
    /// libjpeg reports it properly when decoding.
    static func count(_ data: UnsafeRawBufferPointer, limit: Int) -> Int {
        var i = 2
        var scans = 0
        let end = data.count
        while i + 1 < end {
            guard data[i] == 0xFF else { i += 1; continue }
            let marker = data[i + 1]
            switch marker {
            case 0xFF: i += 1                               // fill byte
            case 0x00, 0x01, 0xD0...0xD8: i += 2            // stuffing, TEM, RSTn, SOI: no length
            case 0xD9: return scans                         // EOI
            default:
                guard i + 3 < end else { return scans }
                let length = Int(data[i + 2]) << 8 | Int(data[i + 3])
                guard length >= 2 else { return scans }
                i += 2 + length
                if marker == 0xDA {
                    scans += 1
                    if scans > limit { return scans }
                    i = endOfEntropyData(data, from: i)
                }
            }
        }
        return scans
    }

    /// The index of the first marker after entropy-coded data starting at `start`.
    private static func endOfEntropyData(_ data: UnsafeRawBufferPointer, from start: Int) -> Int {
        var i = start
        let end = data.count
        while i + 1 < end {
            if data[i] != 0xFF { i += 1; continue }
            let next = data[i + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) { i += 2; continue }
            if next == 0xFF { i += 1; continue }
            return i
        }
        return end
    }
}
