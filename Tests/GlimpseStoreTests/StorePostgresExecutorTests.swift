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
        let edit = EditResult()
        let (allHeld, answeredWhileHeld) = await withEverySharedThreadHeld {
            // The edit is made from a task on an executor of its own, as the daemon's would be.
            let done = DispatchSemaphore(value: 0)
            Task(executorPreference: caller) {
                let result: Result<Int64, StoreError>
                do throws(StoreError) {
                    result = .success(try await store.apply(.setLabels(["water"], precondition: .none)).sequence)
                } catch {
                    result = .failure(error)
                }
                edit.result.withLock { $0 = result }
                done.signal()
            }
            // 60 s: the edit takes milliseconds; with the store's tasks on the shared threads it cannot
            // start until they are free.
            return done.wait(timeout: .now() + 60) == .success
        }
        #expect(allHeld, "every thread of the shared executor was held")
        #expect(answeredWhileHeld, "the edit was not answered within 60 s while the shared threads were held")
        // Once the threads are free the edit ends either way; its answer is checked only when it came in time.
        if answeredWhileHeld { #expect(try edit.result.withLock { $0 }?.get() == 1) }
        await store.close()
    }
}

/// The edit's answer, written by the task that made it.
private final class EditResult: Sendable {
    let result = Mutex<Result<Int64, StoreError>?>(nil)
}
