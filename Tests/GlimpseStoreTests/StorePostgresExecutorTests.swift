import Foundation
import GlimpseStore
import GlimpseStorePostgres
import GlimpseTestSupport
import Synchronization
import Testing

/// A PostgreSQL store given an executor of its own edits while every thread of Swift's shared executor
/// is held by other work: the condition under which, on the shared threads, the suite's store tests
/// failed with "no connection … within 30 s" while the server was up and idle.
@Suite(.hangGuard) struct StorePostgresExecutorTests {
    @Test func anEditIsAnsweredWhileEverySharedThreadIsBlocked() async throws {
        // Opened before the threads are held; 60 s: the deadline is not what is tested here.
        let store = try await PostgresFixtures.database().open(["PGCONNECT_TIMEOUT": "60"])
        let caller = DedicatedExecutor(label: "glimpse.test.store-caller")
        // One blocker per core holds every thread of the shared executor (one per core); the first, once
        // all hold one, edits from a task on an executor of its own and waits for the answer.
        let blockers = ProcessInfo.processInfo.activeProcessorCount
        let holding = DispatchSemaphore(value: 0)
        let answered = DispatchSemaphore(value: 0)
        let outcome = EditOutcome()
        await withTaskGroup(of: Void.self) { group in
            for blocker in 0..<blockers {
                group.addTask {
                    guard blocker == 0 else {
                        holding.signal()
                        answered.wait()
                        return
                    }
                    // The others start as threads come free; 600 s bounds a suite that never frees one.
                    let held = (1..<blockers).allSatisfy { _ in holding.wait(timeout: .now() + 600) == .success }
                    outcome.state.withLock { $0.allHeld = held }
                    let done = DispatchSemaphore(value: 0)
                    Task(executorPreference: caller) {
                        let result: Result<Int64, StoreError>
                        do throws(StoreError) {
                            result = .success(try await store.apply(.setLabels(["water"], precondition: .none)).sequence)
                        } catch {
                            result = .failure(error)
                        }
                        outcome.state.withLock { $0.result = result }
                        done.signal()
                    }
                    // 60 s: the edit takes milliseconds; with the store's tasks on the shared threads it
                    // cannot start until they are free.
                    _ = done.wait(timeout: .now() + 60)
                    outcome.state.withLock { $0.answeredWhileHeld = $0.result != nil }
                    for _ in 1..<blockers { answered.signal() }
                }
            }
        }
        let (allHeld, answeredWhileHeld, result) = outcome.state.withLock { ($0.allHeld, $0.answeredWhileHeld, $0.result) }
        #expect(allHeld, "every blocker held a thread of the shared executor")
        #expect(answeredWhileHeld, "the edit was not answered within 60 s while the shared threads were held")
        // Once the threads are free the edit ends either way; its answer is checked only when it came in time.
        if answeredWhileHeld { #expect(try result?.get() == 1) }
        await store.close()
    }
}

/// What the blocker that edited saw.
private final class EditOutcome: Sendable {
    let state = Mutex<(allHeld: Bool, answeredWhileHeld: Bool, result: Result<Int64, StoreError>?)>((false, false, nil))
}
