import Foundation

/// A fresh directory with a short path under `/tmp` (Unix socket paths must stay under 108 bytes),
/// removed when the value is released unless it was made to be kept.
public final class TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String
    private let removedOnRelease: Bool

    /// Creates the directory.
    ///
    /// - Parameter removedOnRelease: `false` keeps the directory after the value is released (for
    ///   folders that live as long as the test process, such as a shared catalog copy); ``remove()``
    ///   still removes it.
    public init(removedOnRelease: Bool = true) throws {
        var template = Array("/tmp/glimpse-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: template.map { UInt8(bitPattern: $0) } + [0])
        self.removedOnRelease = removedOnRelease
    }

    deinit {
        if removedOnRelease { remove() }
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` inside the directory (creating folders on the way) and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = file(name)
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The contents of `name` inside the directory.
    public func contents(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: file(name))))
    }

    /// The names in the directory, hidden ones included, sorted.
    public func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
