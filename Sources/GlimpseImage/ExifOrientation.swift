/// Reads the orientation tag (0x0112) from the TIFF structure inside an EXIF block.
enum ExifOrientation {
    /// The orientation 1–8 in IFD0 of `tiff` (the bytes after `Exif\0\0`), or `nil` when the
    /// block is malformed, has no orientation tag, or holds a value outside 1–8.
    static func parse(_ tiff: UnsafeRawBufferPointer) -> Int? {
        var reader = TIFFReader(bytes: tiff)
        guard tiff.count >= 8 else { return nil }
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): reader.bigEndian = false
        case (0x4D, 0x4D): reader.bigEndian = true
        default: return nil
        }
        guard reader.u16(at: 2) == 42, let ifd = reader.u32(at: 4), let entries = reader.u16(at: ifd) else {
            return nil
        }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let tag = reader.u16(at: entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count >= 1: the value sits in the first two bytes of the value field.
            guard reader.u16(at: entry + 2) == 3, let count = reader.u32(at: entry + 4), count >= 1,
                  let value = reader.u16(at: entry + 8) else { return nil }
            return (1...8).contains(value) ? value : nil
        }
        return nil
    }
}

/// Bounds-checked reads of TIFF integers in either byte order.
private struct TIFFReader {
    let bytes: UnsafeRawBufferPointer
    var bigEndian = false

    func u16(at offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = Int(bytes[offset]), b = Int(bytes[offset + 1])
        return bigEndian ? (a << 8 | b) : (b << 8 | a)
    }

    func u32(at offset: Int) -> Int? {
        guard let first = u16(at: offset), let second = u16(at: offset + 2) else { return nil }
        return bigEndian ? (first << 16 | second) : (second << 16 | first)
    }
}
