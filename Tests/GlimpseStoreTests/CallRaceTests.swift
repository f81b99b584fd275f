import GlimpseStore
@testable import GlimpseStorePostgres
import GlimpseTestSupport
import Synchronization
import Testing

/// The deadlines of one database call (``CallRace``), driven by a manual clock: no test sleeps, and a
/// work that ignores cancellation (as postgres-nio's query on a closed connection does) never holds
/// up its caller.
@Suite(.hangGuard) struct CallRaceTests {
    /// A clock the test moves: each `sleep` waits until ``fire(_:)`` is called for its duration.
    final class ManualSleeper: Sendable {
        private struct State {
            var sleeping: [(Duration, CheckedContinuation<Void, any Error>)] = []
            var fired: [Duration] = []
            var requested: [Duration] = []
        }
        private let state = Mutex(State())

        /// The sleep `CallRace` is given.
        var sleep: CallRace<Int>.Sleep {
            { duration in try await self.wait(duration) }
        }

        /// The durations asked for so far.
        var requested: [Duration] { state.withLock { $0.requested } }

        private func wait(_ duration: Duration) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let firedAlready = state.withLock { state -> Bool in
                    state.requested.append(duration)
                    if let index = state.fired.firstIndex(of: duration) {
                        state.fired.remove(at: index)
                        return true
                    }
                    state.sleeping.append((duration, continuation))
                    return false
                }
                if firedAlready { continuation.resume() }
            }
        }

        /// Ends the (next) sleep of `duration`, now or as soon as it starts.
        func fire(_ duration: Duration) {
            let sleeper = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.sleeping.firstIndex(where: { $0.0 == duration }) else {
                    state.fired.append(duration)
                    return nil
                }
                return state.sleeping.remove(at: index).1
            }
            sleeper?.resume()
        }

        /// Ends every sleep still waiting with an error, as a cancelled sleep ends.
        func cancelAll() {
            let sleepers = state.withLock { state in
                defer { state.sleeping = [] }
                return state.sleeping.map(\.1)
            }
            for sleeper in sleepers { sleeper.resume(throwing: CancellationError()) }
        }
    }

    /// A wait that ignores cancellation, released by the test (as a postgres-nio query whose answer
    /// never comes is never released).
    final class Stuck: Sendable {
        private let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)
        private let released = Mutex(false)

        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = released.withLock { released in
                    if !released { waiter.withLock { $0 = continuation } }
                    return released
                }
                if now { continuation.resume() }
            }
        }

        func release() {
            released.withLock { $0 = true }
            waiter.withLock { waiter in
                defer { waiter = nil }
                return waiter
            }?.resume()
        }
    }

    static let waitLimit = Duration.seconds(7)
    static let runLimit = Duration.seconds(11)
    static let limits = CallRace<Int>.Limits(
        wait: waitLimit, waitExpired: .unavailable(reason: "waited too long"),
        run: runLimit, runExpired: .unavailable(reason: "ran too long"))

    static func run(
        _ sleeper: ManualSleeper, _ work: @escaping @Sendable (CallRace<Int>) async throws -> Int
    ) async -> Result<Int, StoreError> {
        do throws(StoreError) {
            return .success(try await CallRace.run(limits: limits, sleep: sleeper.sleep, mapError: { error in
                error is CancellationError ? .unavailable(reason: "cancelled") : .io(path: "work", reason: "\(error)")
            }, work))
        } catch {
            return .failure(error)
        }
    }

    @Test func workThatEndsInTimeIsTheAnswer() async {
        let sleeper = ManualSleeper()
        let result = await Self.run(sleeper) { race in
            let entered = race.enter(onAbandon: { Issue.record("a finished call was abandoned") })
            #expect(entered)
            return 42
        }
        #expect(result == .success(42))
    }

    @Test func aCallThatNeverGetsItsConnectionEndsAtTheWaitLimit() async throws {
        let sleeper = ManualSleeper()
        let stuck = Stuck()
        let entered = Mutex<Bool?>(nil)
        async let result = Self.run(sleeper) { race in
            await stuck.wait()  // the pool never lends a connection
            entered.withLock { $0 = race.enter(onAbandon: {}) }
            return 1
        }
        sleeper.fire(Self.waitLimit)
        #expect(await result == .failure(.unavailable(reason: "waited too long")))
        // A connection lent after the deadline gave up is not used.
        stuck.release()
        try await poll(every: .milliseconds(10), "the late work to try to enter") { entered.withLock { $0 } != nil }
        #expect(entered.withLock { $0 } == false)
    }

    @Test func aCallWhoseStatementNeverEndsEndsAtTheRunLimitAndDropsItsConnection() async throws {
        let sleeper = ManualSleeper()
        let stuck = Stuck()
        let dropped = Mutex(0)
        async let result = Self.run(sleeper) { race in
            guard race.enter(onAbandon: { dropped.withLock { $0 += 1 } }) else { return 0 }
            await stuck.wait()  // a statement whose answer never comes, deaf to cancellation
            return 1
        }
        try await poll(every: .milliseconds(10), "the run limit to be armed") { sleeper.requested.contains(Self.runLimit) }
        // The wait limit no longer applies once the call holds its connection.
        sleeper.fire(Self.waitLimit)
        sleeper.fire(Self.runLimit)
        #expect(await result == .failure(.unavailable(reason: "ran too long")))
        #expect(dropped.withLock { $0 } == 1)
        stuck.release()
        sleeper.cancelAll()
    }

    @Test func aCancelledCallerIsAnsweredAtOnceWhateverTheWorkDoes() async throws {
        let sleeper = ManualSleeper()
        let stuck = Stuck()
        let dropped = Mutex(0)
        let caller = Task {
            await Self.run(sleeper) { race in
                guard race.enter(onAbandon: { dropped.withLock { $0 += 1 } }) else { return 0 }
                await stuck.wait()
                return 1
            }
        }
        try await poll(every: .milliseconds(10), "the run limit to be armed") { sleeper.requested.contains(Self.runLimit) }
        caller.cancel()
        // No limit fired: the answer comes from the cancellation alone.
        #expect(await caller.value == .failure(.unavailable(reason: "cancelled")))
        #expect(dropped.withLock { $0 } == 1)
        stuck.release()
        sleeper.cancelAll()
    }

    @Test func aCallerCancelledBeforeItStartsIsAnsweredAndItsWorkNeverEnters() async throws {
        let sleeper = ManualSleeper()
        let entered = Mutex<Bool?>(nil)
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await Self.run(sleeper) { race in
                entered.withLock { $0 = race.enter(onAbandon: {}) }
                return 1
            }
        }
        #expect(await caller.value == .failure(.unavailable(reason: "cancelled")))
        try await poll(every: .milliseconds(10), "the work to try to enter") { entered.withLock { $0 } != nil }
        #expect(entered.withLock { $0 } == false)
        sleeper.cancelAll()
    }

    @Test func workErrorsAreMapped() async {
        struct Refused: Error {}
        let result = await Self.run(ManualSleeper()) { race in
            _ = race.enter(onAbandon: {})
            throw Refused()
        }
        guard case .failure(.io(path: "work", _)) = result else {
            Issue.record("expected the mapped error, got \(result)")
            return
        }
    }
}
