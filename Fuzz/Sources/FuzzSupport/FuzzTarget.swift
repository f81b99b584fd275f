import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a fuzz target under libFuzzer.
public enum FuzzTarget {
    /// The test function; set once by ``run(_:)`` before libFuzzer starts, then only read, from the
    /// one thread libFuzzer calls it on.
    nonisolated(unsafe) private static var test: (@Sendable ([UInt8]) -> Void)?

    /// Hands the process arguments (libFuzzer's flags and corpus folders) to libFuzzer, which calls
    /// `test` with each input; exits with libFuzzer's status. A crash, a failed ``FuzzCheck``, a leak
    /// or a timeout inside `test` is what libFuzzer reports and keeps the input of.
    public static func run(_ test: @escaping @Sendable ([UInt8]) -> Void) -> Never {
        Self.test = test
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
            FuzzTarget.test?(bytes)
            return 0
        }
        exit(status)
    }
}

/// Properties a fuzz target checks beyond "does not crash": a failure stops the run like a crash.
public enum FuzzCheck {
    /// Stops the process with `message` unless `condition` holds.
    public static func require(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        if !condition() { fatalError("fuzz check failed: \(message())", file: file, line: line) }
    }
}
