import Foundation

/// Runs blocking work on its own thread so it never occupies a Swift concurrency thread: the suite runs
/// in parallel on a 2-core machine, and an in-process daemon under test needs those threads.
public func offThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
