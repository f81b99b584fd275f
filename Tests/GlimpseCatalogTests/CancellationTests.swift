import GlimpseCatalog
import GlimpseImage
import GlimpseIntents
import GlimpseLabels
import GlimpseTestSupport
import GlimpseVision
import Synchronization
import Testing

/// A matcher that waits (without returning to the caller) until its task is cancelled, then reports a
/// match as if it had finished its stage: the search must stop at its next stage all the same.
private struct MatcherThatFinishesAfterCancellation: PlaceMatching {
    let started: Flag

    func matchPlaces(in image: PixelBuffer, limit: Int) async throws -> PlaceMatchReport {
        started.value.store(true, ordering: .releasing)
        while !Task.isCancelled { await Task.yield() }
        return PlaceMatchReport(candidates: [])
    }
}

/// A flag shared between tasks.
private final class Flag: Sendable {
    let value = Atomic(false)
}

/// A labeller that counts its calls.
private final class CountingLabeler: LabelDeriving {
    let calls = Atomic(0)

    func labels(for image: PixelBuffer) async throws -> [ScoredLabel] {
        calls.add(1, ordering: .relaxed)
        return [ScoredLabel(label: "tower", score: 1)]
    }
}

@Suite("An abandoned query stops at its next stage")
struct CancellationTests {
    @Test func aSearchCancelledDuringMatchingNeverDerivesLabels() async throws {
        let started = Flag()
        let labeler = CountingLabeler()
        let store = SnapshotStore()
        let query = VisualSearchQuery(
            snapshot: store.publish(Fixtures.catalog), store: store,
            matcher: MatcherThatFinishesAfterCancellation(started: started), labeler: labeler)
        let picture = try tinyPicture()
        let search = Task { try await query.search(SemanticContentDescriptor(pixelBuffer: picture), limit: 5) }
        try await poll(every: .milliseconds(1), "the matcher started") { started.value.load(ordering: .acquiring) }
        search.cancel()
        let outcome = await search.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(labeler.calls.load(ordering: .relaxed) == 0, "the labels stage ran after the cancellation")
    }

    @Test func aSearchInACancelledTaskDoesNotStart() async throws {
        let labeler = CountingLabeler()
        let store = SnapshotStore()
        let query = VisualSearchQuery(snapshot: store.publish(Fixtures.catalog), store: store, labeler: labeler)
        let picture = try tinyPicture()
        let search = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await query.search(SemanticContentDescriptor(pixelBuffer: picture), limit: 5)
        }
        let outcome = await search.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(labeler.calls.load(ordering: .relaxed) == 0)
    }

    @Test func theMatcherStopsBetweenItsStagesOnceCancelled() async throws {
        let matcher = VisualMatcher(references: [])
        let picture = try PixelBuffer(width: 64, height: 48, pixelFormat: .gray8,
                                      bytes: (0..<(64 * 48)).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try matcher.matchUnlessCancelled(picture)
        }
        let outcome = await cancelled.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        let running = Task { try matcher.matchUnlessCancelled(picture) }
        let report = try await running.value
        #expect(report.accepted == nil, "an uncancelled match runs to the end")
    }
}
