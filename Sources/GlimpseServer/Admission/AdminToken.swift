import Foundation

/// The bearer token that lets a client edit the catalog over the HTTP listener (`--admin-token-file`).
///
/// TCP carries no peer credentials, so the HTTP listener is read-only unless the daemon is given a
/// token: an edit must then send `Authorization: Bearer TOKEN`. The token is compared in constant time
/// and never logged (its `description` is redacted).
public struct AdminToken: Sendable, CustomStringConvertible {
    private let bytes: [UInt8]

    /// The least number of characters a token has.
    public static let minimumLength = 16

    /// A token from its text (surrounding whitespace removed).
    ///
    /// - Throws: ``GlimpseServerError`` with code `invalidConfiguration` for a token shorter than
    ///   ``minimumLength`` or holding whitespace or control characters inside.
    public init(_ text: String) throws(GlimpseServerError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count >= Self.minimumLength else {
            throw .invalidConfiguration(
                "the admin token has \(trimmed.utf8.count) characters; use at least \(Self.minimumLength), "
                    + "for instance: head -c 32 /dev/urandom | base64 > FILE")
        }
        guard trimmed.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .invalidConfiguration("the admin token must be printable ASCII without spaces, on one line")
        }
        bytes = Array(trimmed.utf8)
    }

    /// Reads the token from a file that only its owner can read.
    ///
    /// - Throws: ``GlimpseServerError`` with code `invalidConfiguration` when the file cannot be read,
    ///   other users may read it (`chmod 600 FILE`), or its token is not acceptable.
    public init(readingFile path: String) throws(GlimpseServerError) {
        let attributes: [FileAttributeKey: Any]
        let data: Data
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .invalidConfiguration("cannot read the admin token file \(path); give a readable file")
        }
        if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
            throw .invalidConfiguration(
                "the admin token file \(path) may be read by other users (mode \(String(mode, radix: 8))); chmod 600 it")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidConfiguration("the admin token file \(path) is not UTF-8 text")
        }
        try self.init(text)
    }

    /// Whether `candidate` is the token, taking the same time for every candidate of a given length
    /// whichever byte differs.
    public func matches(_ candidate: some Collection<UInt8>) -> Bool {
        let other = Array(candidate)
        var difference: UInt8 = other.count == bytes.count ? 0 : 1
        guard !other.isEmpty else { return false }
        for index in bytes.indices {
            difference |= bytes[index] ^ other[index % other.count]
        }
        return difference == 0
    }

    /// Whether an `Authorization` header value is `Bearer` followed by the token.
    func authorizes(header value: String) -> Bool {
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        return matches(parts[1].trimmingCharacters(in: .whitespaces).utf8)
    }

    /// Redacted: a token never reaches a log.
    public var description: String { "AdminToken(redacted)" }
}
