@testable import GlimpseServer
import NIOCore
import Testing

/// The value state machines behind the connection cap, the raw-byte framing, the query gate and the
/// first-request grace: plain values and explicit times, no sockets.
@Suite("Connection state machines")
struct ConnectionStateTests {
    // MARK: - ConnectionTable

    private var t0: NIODeadline { .uptimeNanoseconds(1_000_000_000) }

    @Test func underTheCapEveryConnectionIsAcceptedAndNoneEvicted() {
        var table = ConnectionTable<Int>(maxConnections: 3, evictionAge: .milliseconds(500))
        for id in 0..<3 {
            #expect(table.canAccept(now: t0))
            #expect(table.opened(id, now: t0).isEmpty)
        }
        #expect(!table.canAccept(now: t0), "full, and nobody has waited long enough to be evicted")
        #expect(table.room(now: t0) == .waitUntil(t0 + .milliseconds(500)))
    }

    @Test func atTheCapTheConnectionWaitingLongestForAHeadMakesRoom() {
        var table = ConnectionTable<Int>(maxConnections: 3, evictionAge: .milliseconds(500))
        _ = table.opened(1, now: t0)
        _ = table.opened(2, now: t0 + .milliseconds(100))
        _ = table.opened(3, now: t0 + .milliseconds(200))
        table.set(1, .busy, now: t0 + .milliseconds(300))  // busy connections are never evicted
        let now = t0 + .seconds(1)
        #expect(table.canAccept(now: now))
        #expect(table.opened(4, now: now) == [2], "the oldest one still waiting for its head")
        #expect(table.opened(5, now: now) == [3])
        #expect(table.liveCount == 3)
        #expect(table.count == 5, "evicted connections count until they have closed")
        table.closed(2)
        table.closed(3)
        #expect(table.count == 3)
    }

    @Test func neverServedConnectionsGoBeforeServedOnes() {
        var table = ConnectionTable<Int>(maxConnections: 2, evictionAge: .milliseconds(500))
        _ = table.opened(1, now: t0)
        table.set(1, .busy, now: t0)
        table.set(1, .awaitingNextHead, now: t0 + .milliseconds(10))  // served, now idle (older)
        _ = table.opened(2, now: t0 + .milliseconds(100))  // never served (younger)
        #expect(table.opened(3, now: t0 + .seconds(2)) == [2])
    }

    @Test func connectionsAcceptedBeyondTheCapAreEvictedBackToItOnceTheyCanBe() {
        var table = ConnectionTable<Int>(maxConnections: 2, evictionAge: .milliseconds(500), headroom: 2)
        _ = table.opened(1, now: t0)
        _ = table.opened(2, now: t0)
        #expect(table.opened(3, now: t0 + .milliseconds(100)).isEmpty, "nobody old enough yet: over the cap")
        #expect(Set(table.opened(4, now: t0 + .seconds(1))) == [1, 2], "back to the cap in one go")
        #expect(table.room(now: t0 + .seconds(1)) == .waitForCloses, "cap plus headroom reached")
        table.set(3, .busy, now: t0 + .seconds(1))
        #expect(table.opened(5, now: t0 + .seconds(1)).isEmpty, "nobody evictable: over the cap again")
        #expect(table.liveCount == 3)
        #expect(table.room(now: t0 + .seconds(1)) == .waitUntil(t0 + .milliseconds(1_500)),
                "live ones over the cap wait to be trimmed, not for closes")
        #expect(table.trim(now: t0 + .milliseconds(1_500)).count == 1)
        #expect(table.liveCount == 2)
        table.closed(1)
        table.closed(2)
        #expect(table.room(now: t0 + .seconds(2)) == .accept)
    }

    @Test func whenEveryConnectionIsBusyNewOnesWait() {
        var table = ConnectionTable<Int>(maxConnections: 2, evictionAge: .milliseconds(500))
        _ = table.opened(1, now: t0)
        _ = table.opened(2, now: t0)
        table.set(1, .busy, now: t0)
        table.set(2, .busy, now: t0)
        #expect(table.room(now: t0 + .seconds(60)) == .waitUntil(nil))
        table.set(2, .awaitingNextHead, now: t0 + .seconds(60))
        #expect(!table.canAccept(now: t0 + .seconds(60)))
        #expect(table.canAccept(now: t0 + .milliseconds(60_500)))
    }

    // MARK: - RequestFraming

    private func feed(_ framing: inout RequestFraming, _ text: String) -> [RequestFraming.Event] {
        framing.feed(Array(text.utf8))
    }

    @Test func framingReportsEachHeadStartAcrossKeepAliveRequests() {
        var framing = RequestFraming(maxBodyBytes: 100)
        #expect(feed(&framing, "G") == [.headStarted])
        #expect(feed(&framing, "ET / HTTP/1.1\r\nHost: x\r\n\r\n").isEmpty)
        #expect(feed(&framing, "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nabcde") == [.headStarted])
        #expect(feed(&framing, "\r\nPOST / HTTP/1.1\r\n") == [.headStarted], "empty lines between requests are skipped")
    }

    @Test func aBodyThatLooksLikeAHeadIsNotTakenForOne() {
        var framing = RequestFraming(maxBodyBytes: 100)
        let body = "GET / HTTP/1.1\r\n\r\n"
        #expect(feed(&framing, "POST / HTTP/1.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body) == [.headStarted])
        #expect(feed(&framing, "GET").count == 1)
    }

    @Test func aChunkPastTheLimitIsReportedWhenItsSizeLineArrives() {
        var framing = RequestFraming(maxBodyBytes: 1_000)
        _ = feed(&framing, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(feed(&framing, "100;ext=1\r\n" + String(repeating: "a", count: 256) + "\r\n").isEmpty)
        #expect(feed(&framing, "FFFFFFFFFFFFFFFF\r\n") == [.chunkTooLarge(declared: UInt64.max)])
        #expect(framing.isStopped)

        var overflow = RequestFraming(maxBodyBytes: 1_000)
        _ = feed(&overflow, "POST / HTTP/1.1\r\ntransfer-encoding: gzip, chunked\r\n\r\n")
        #expect(feed(&overflow, "1FFFFFFFFFFFFFFFF\r\n") == [.chunkTooLarge(declared: nil)])

        var sum = RequestFraming(maxBodyBytes: 1_000)
        _ = feed(&sum, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(feed(&sum, "200\r\n" + String(repeating: "a", count: 512) + "\r\n").isEmpty)
        #expect(feed(&sum, "200\r\n") == [.chunkTooLarge(declared: 512)], "the body as a whole is limited")
    }

    @Test func aChunkedBodyEndsWithItsTrailers() {
        var framing = RequestFraming(maxBodyBytes: 1_000)
        _ = feed(&framing, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(feed(&framing, "3\r\nabc\r\n0\r\nX-Trailer: 1\r\n\r\n").isEmpty)
        #expect(feed(&framing, "GET / HTTP/1.1\r\n") == [.headStarted])
    }

    // MARK: - GateState

    @Test func admissionCountsSlotsAndBodyBytes() {
        var state = GateState(capacity: 3, threads: 1)
        guard case .admitted(let first) = state.admit(bytes: 60, budget: 100) else {
            Issue.record("the first query fits")
            return
        }
        #expect(state.admit(bytes: 50, budget: 100) == .overBudget, "refused before its body is read")
        guard case .admitted = state.admit(bytes: 40, budget: 100) else {
            Issue.record("a smaller body still fits")
            return
        }
        #expect(state.bytes == 100)
        state.release(id: first, bytes: 60)
        #expect(state.bytes == 40)
        #expect(state.admitted == 1)
        _ = state.admit(bytes: 0, budget: 100)
        _ = state.admit(bytes: 0, budget: 100)
        #expect(state.admit(bytes: 0, budget: 100) == .full)
        _ = state.stop()
        #expect(state.admit(bytes: 0, budget: 100) == .stopping)
    }

    // MARK: - FirstRequestGrace

    @Test func aQuiesceBeforeTheFirstHeadIsHeldUntilTheHead() {
        var grace = FirstRequestGrace(grace: .seconds(5))
        #expect(grace.deadline == nil)
        #expect(grace.quiesceRequested(now: t0) == .hold)
        #expect(grace.deadline == t0 + .seconds(5))
        #expect(grace.quiesceRequested(now: t0 + .seconds(1)) == .ignore, "one signal is held, not two")
        let early = grace.deadlinePassed(now: t0 + .milliseconds(4_999))
        #expect(!early)
        let behindHead = grace.receivedHead()
        #expect(behindHead, "passed on behind the head")
        #expect(grace.deadline == nil)
        let afterHead = grace.deadlinePassed(now: t0 + .seconds(5))
        #expect(!afterHead)
        let secondHead = grace.receivedHead()
        #expect(!secondHead, "only once")
    }

    @Test func aHeldQuiesceIsPassedOnWhenTheGraceRunsOut() {
        var grace = FirstRequestGrace(grace: .seconds(5))
        _ = grace.quiesceRequested(now: t0)
        let ranOut = grace.deadlinePassed(now: t0 + .seconds(5))
        #expect(ranOut)
        #expect(grace.deadline == nil)
        let lateHead = grace.receivedHead()
        #expect(!lateHead, "a head after the grace has nothing held to pass on")
    }

    @Test func afterTheFirstHeadQuiesceIsPassedOnAtOnce() {
        var grace = FirstRequestGrace(grace: .seconds(5))
        let held = grace.receivedHead()
        #expect(!held)
        #expect(grace.quiesceRequested(now: t0) == .passOn)
        #expect(grace.deadline == nil)
    }

    @Test func aClosedConnectionDropsTheQuiesceItHeld() {
        var grace = FirstRequestGrace(grace: .seconds(5))
        _ = grace.quiesceRequested(now: t0)
        grace.connectionClosed()
        #expect(grace.deadline == nil)
        let passed = grace.deadlinePassed(now: t0 + .seconds(10))
        #expect(!passed)
    }
}
