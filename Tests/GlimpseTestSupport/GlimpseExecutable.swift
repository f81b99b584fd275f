import Foundation

/// The built `glimpse` executable, found next to the test bundle (or in a folder above it).
///
/// - Throws: `ENOENT` when it was not built.
public func glimpseExecutable() throws -> String {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    while url.path != "/" {
        let candidate = url.deletingLastPathComponent().appendingPathComponent("glimpse").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        url.deleteLastPathComponent()
    }
    throw POSIXError(.ENOENT)
}
