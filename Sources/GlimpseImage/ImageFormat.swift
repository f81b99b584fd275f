/// The image file formats Glimpse decodes, recognised by their leading bytes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Portable Network Graphics (signature `89 50 4E 47 0D 0A 1A 0A`).
    case png
    /// JPEG / JFIF / EXIF (start-of-image marker `FF D8 FF`).
    case jpeg

    /// The lowercase name used in command-line and JSON output.
    public var description: String { rawValue }

    /// The format whose signature starts `data`, or `nil` when none matches.
    static func sniff(_ data: UnsafeRawBufferPointer) -> ImageFormat? {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if data.count >= png.count, data.prefix(png.count).elementsEqual(png) { return .png }
        if data.count >= 3, data[0] == 0xFF, data[1] == 0xD8, data[2] == 0xFF { return .jpeg }
        return nil
    }
}
