import Foundation

/// What a finished process printed, and how it ended.
public struct ProcessOutput: Sendable {
    /// The exit status.
    public let status: Int32
    /// Standard output.
    public let out: String
    /// Standard error.
    public let err: String
}

/// Runs `executable` with `arguments` in `directory` to completion and returns its status and output.
/// `environment` replaces this process's environment when given.
///
/// The wait is on a thread of its own: a child running for minutes (a debug `glimpse eval`) would
/// otherwise hold one of the few threads of Swift's shared executor, and with two such children the
/// whole test process stands still.
public func runProcess(
    _ executable: String, _ arguments: [String], in directory: String, environment: [String: String]? = nil
) async throws -> ProcessOutput {
    try await offThread {
        Result { try runProcessBlocking(executable, arguments, in: directory, environment: environment) }
    }.get()
}

/// ``runProcess(_:_:in:environment:)`` on the calling thread.
private func runProcessBlocking(
    _ executable: String, _ arguments: [String], in directory: String, environment: [String: String]?
) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Standard error is drained on its own thread, so that neither pipe can fill and stall the child.
    let errData = ErrorDrain(err.fileHandleForReading)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessOutput(
        status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
        err: String(decoding: errData.wait(), as: UTF8.self))
}

/// Reads a pipe to its end on another thread.
private final class ErrorDrain: @unchecked Sendable {
    // @unchecked: `data` is written once by the reading thread before `done` is signalled, and read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
