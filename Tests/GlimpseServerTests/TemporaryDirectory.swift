import Foundation

/// A fresh directory under /tmp with a short path (socket paths must stay under 108 bytes),
/// removed by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/glimpse-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: template.map { UInt8(bitPattern: $0) } + [0])
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
