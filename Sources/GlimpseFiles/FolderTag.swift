import Foundation

/// A file-name-safe tag for a folder: its last component (letters, digits, `-` and `_` kept, anything
/// else `_`, at most 64 characters), a dash, and the FNV-1a 64 of its absolute path in hex. Files kept
/// per folder (the feature cache of a catalog folder, the store seeded from it) are named with it, so
/// two folders of the same name never share one.
package enum FolderTag {
    /// The tag of `directory` (made absolute and standardised first).
    package static func of(_ directory: String) -> String {
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        let name = String(URL(fileURLWithPath: absolute).lastPathComponent.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_"
        }.prefix(64))
        var hash = FNV1a64()
        hash.add(absolute.utf8)
        return name + "-" + hash.hex
    }
}
