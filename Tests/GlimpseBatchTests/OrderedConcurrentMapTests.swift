import Synchronization
import Testing

@testable import GlimpseBatch

/// Counts transforms in flight and the largest number seen at once.
private final class Gauge: Sendable {
    private let state = Mutex((running: 0, peak: 0, started: 0))

    func enter() {
        state.withLock {
            $0.running += 1
            $0.started += 1
            $0.peak = max($0.peak, $0.running)
        }
    }

    func leave() { state.withLock { $0.running -= 1 } }
    var peak: Int { state.withLock { $0.peak } }
    var started: Int { state.withLock { $0.started } }
}

@Suite struct OrderedConcurrentMapTests {
    @Test(arguments: [1, 2, 3, 8])
    func emitsEveryInputOnceInOrderWhateverTheFinishingOrder(jobs: Int) async throws {
        let gauge = Gauge()
        var emitted: [Int] = []
        try await OrderedConcurrentMap(jobs: jobs).run(0..<60) { n in
            gauge.enter()
            defer { gauge.leave() }
            // Later inputs finish first within each group of five.
            try? await Task.sleep(for: .milliseconds(5 - n % 5))
            return n * n
        } emit: { n, square in
            #expect(square == n * n)
            emitted.append(n)
        }
        #expect(emitted == Array(0..<60))
        #expect(gauge.peak <= jobs)
        if jobs > 1 { #expect(gauge.peak > 1) }
    }

    @Test func neverStartsMoreThanTheWindowAheadOfTheSlowestInput() async throws {
        let gauge = Gauge()
        var maxAhead = 0
        var emittedCount = 0
        let map = OrderedConcurrentMap(jobs: 4, window: 6)
        try await map.run(0..<40) { n in
            gauge.enter()
            defer { gauge.leave() }
            // Every tenth input is slow, so the others pile up behind it.
            try? await Task.sleep(for: .milliseconds(n % 10 == 0 ? 30 : 1))
            return n
        } emit: { _, _ in
            maxAhead = max(maxAhead, gauge.started - emittedCount)
            emittedCount += 1
        }
        #expect(emittedCount == 40)
        #expect(maxAhead <= 6)
    }

    @Test func anEmitFailureStopsTheRunAndIsRethrown() async {
        struct Stop: Error {}
        var emitted = 0
        await #expect(throws: Stop.self) {
            try await OrderedConcurrentMap(jobs: 2).run(0..<1_000) { n in n } emit: { n, _ in
                emitted += 1
                if n == 10 { throw Stop() }
            }
        }
        #expect(emitted == 11)
    }

    @Test func consumesTheInputLazily() async throws {
        var pulled = 0
        let inputs = (0..<1_000_000).lazy.map { n -> Int in
            pulled += 1
            return n
        }
        var seen = 0
        struct Enough: Error {}
        do {
            try await OrderedConcurrentMap(jobs: 2, window: 8).run(inputs) { $0 } emit: { _, _ in
                seen += 1
                if seen == 20 { throw Enough() }
            }
        } catch is Enough {}
        #expect(pulled <= 20 + 8)
    }
}
