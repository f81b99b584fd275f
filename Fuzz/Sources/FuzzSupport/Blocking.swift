import Dispatch
import Synchronization

/// Runs `operation` to completion from synchronous code (a fuzz target's test function) and returns
/// its result.
///
/// The operation starts at once on the calling thread (`Task.immediate`), so one that never suspends
/// (a search without a matcher) finishes before this returns without involving another thread, which
/// keeps libFuzzer's per-input leak check quiet and the target fast; one that does suspend is waited for.
public func runBlocking<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
    let result = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.immediate {
        let value = await operation()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    guard let value = result.withLock({ $0.take() }) else { fatalError("runBlocking: the operation left no result") }
    return value
}
