@testable import GlimpseServer
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing

/// The request guard's decisions as a plain value: events in, actions out, every time given
/// explicitly (no channel, no clock).
@Suite("Request guard state")
struct RequestGuardStateTests {
    typealias State = RequestGuardState

    /// Small limits, so that a few bytes pass them.
    static let limits = State.Limits(
        maxBodyBytes: 1_000, maxHeaderBytes: 1_024, headerTimeout: .seconds(5), requestDeadline: .seconds(30)
    )

    /// `seconds` after an arbitrary start.
    static func t(_ seconds: Double) -> NIODeadline {
        .uptimeNanoseconds(1_000_000_000) + .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// Something that happens on the connection, as the handler reports it.
    enum Event: Sendable {
        /// The first byte of a head, at a time.
        case headBytes(at: Double)
        /// A request head with these fields, at a time.
        case head(HTTPFields, at: Double)
        case body(Int)
        case end
        /// A `200` response head with these fields.
        case respond(HTTPFields)
        case responseEnd
        /// The timer fires at this time.
        case clock(Double)
        case chunkTooLarge(UInt64?)
        case unparsable(State.Refusal)
        case closed
    }

    /// What the state said to do.
    enum Outcome: Equatable, Sendable {
        /// An event that asks for no decision.
        case none
        case act(State.Action)
        case end(State.ResponseEndAction)

        static let forward = Outcome.act(.forward)
        static let ignore = Outcome.act(.ignore)
        static let close = Outcome.act(.close)

        static func refuse(_ refusal: State.Refusal, answer: Bool, tellReader: Bool) -> Outcome {
            .act(.refuse(refusal, answer: answer, tellReader: tellReader))
        }
    }

    /// A sequence of events and what each should lead to.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var steps: [(Event, Outcome)]

        /// A scenario called `name`: each event, and what it should lead to.
        init(_ name: String, _ steps: (Event, Outcome)...) {
            self.testDescription = name
            self.steps = steps
        }
    }

    /// Feeds `event` to `state`; returns what it said.
    static func feed(_ event: Event, to state: inout State) -> Outcome {
        switch event {
        case .headBytes(let at):
            state.headStarted(now: t(at))
            return .none
        case .head(let fields, let at):
            return .act(state.receivedHead(request(fields), now: t(at)))
        case .body(let count): return .act(state.receivedBody(count: count))
        case .end: return .act(state.receivedEnd())
        case .respond(let fields):
            _ = state.writingResponseHead(HTTPResponse(status: .ok, headerFields: fields))
            return .none
        case .responseEnd: return .end(state.writingResponseEnd())
        case .clock(let at): return .act(state.deadlinePassed(now: t(at)))
        case .chunkTooLarge(let declared): return .act(state.chunkTooLarge(declared: declared))
        case .unparsable(let refusal): return .act(state.parseFailed(refusal))
        case .closed:
            state.connectionClosed()
            return .none
        }
    }

    /// A `POST /v1/query` head with `fields`.
    static func request(_ fields: HTTPFields) -> HTTPRequest {
        HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/v1/query", headerFields: fields)
    }

    /// The fields of a request or response that ends the connection.
    static let closing: HTTPFields = [.connection: "close"]

    /// Event sequences and the actions they lead to, one scenario a behaviour.
    static let scenarios: [Scenario] = [
        Scenario(
            "a silent connection is left to the idle timeout; a started head is due within the head deadline",
            (.clock(60), .ignore),
            (.headBytes(at: 60), .none),
            (.clock(64.999), .ignore),
            (.clock(65), .refuse(.headTimeout, answer: true, tellReader: false)),
            (.end, .ignore)),
        Scenario(
            "a head in time stops the head deadline and starts the body deadline",
            (.headBytes(at: 0), .none),
            (.head([:], at: 4.9), .forward),
            (.clock(5), .ignore),
            (.body(10), .forward),
            (.clock(34.899), .ignore),
            (.clock(34.9), .refuse(.bodyTimeout, answer: true, tellReader: true)),
            (.body(10), .ignore)),
        Scenario(
            "a declared body over the limit is refused before any of it is read",
            (.head([.contentLength: "5000"], at: 0),
             .refuse(.bodyTooLarge(declared: 5000), answer: true, tellReader: true)),
            (.body(100), .ignore),
            (.end, .ignore),
            (.head([:], at: 1), .ignore)),
        Scenario(
            "a declared JSON body over the limit is told to send a smaller JSON body, a picture a smaller image",
            (.head([.contentLength: "5000", .contentType: "application/json"], at: 0),
             .refuse(.bodyTooLarge(declared: 5000, advice: .json), answer: true, tellReader: true))),
        Scenario(
            "a declared picture over the limit is told to send a smaller image",
            (.head([.contentLength: "5000", .contentType: "image/jpeg"], at: 0),
             .refuse(.bodyTooLarge(declared: 5000, advice: .image), answer: true, tellReader: true))),
        Scenario(
            "a body of exactly the limit passes",
            (.head([.contentLength: "1000"], at: 0), .forward),
            (.body(1_000), .forward),
            (.end, .forward)),
        Scenario(
            "a body without a length is refused as it grows past the limit",
            (.head([.transferEncoding: "chunked"], at: 0), .forward),
            (.body(600), .forward),
            (.body(401), .refuse(.bodyTooLarge(declared: nil), answer: true, tellReader: true)),
            (.end, .ignore)),
        Scenario(
            "a chunk declared past the limit is refused when its size line arrives",
            (.head([.transferEncoding: "chunked"], at: 0), .forward),
            (.chunkTooLarge(4_096), .refuse(.chunkTooLarge(declared: 4_096), answer: true, tellReader: true)),
            (.chunkTooLarge(nil), .ignore)),
        Scenario(
            "a body deadline that passes while the response is being written closes without a second answer",
            (.head([:], at: 0), .forward),
            (.respond([:]), .none),
            (.clock(30), .refuse(.bodyTimeout, answer: false, tellReader: true))),
        Scenario(
            "input the decoder cannot parse is answered once",
            (.unparsable(.malformed("a bad request target")),
             .refuse(.malformed("a bad request target"), answer: true, tellReader: false)),
            (.unparsable(.headTooLarge), .ignore)),
        Scenario(
            "a body the decoder cannot parse tells its reader",
            (.head([.transferEncoding: "chunked"], at: 0), .forward),
            (.unparsable(.malformed("a bad chunk size")),
             .refuse(.malformed("a bad chunk size"), answer: true, tellReader: true))),
        Scenario(
            "an early answer on a kept-alive connection lets the server read the rest of the body",
            (.head([.contentLength: "10"], at: 0), .forward),
            (.respond([:]), .none),
            (.responseEnd, .end(.write)),
            (.body(10), .forward),
            (.end, .forward),
            (.clock(30), .ignore),
            (.head([:], at: 31), .forward)),
        Scenario(
            "after an early answer, a body past the limit closes without a second answer",
            (.head([.transferEncoding: "chunked"], at: 0), .forward),
            (.respond([:]), .none),
            (.responseEnd, .end(.write)),
            (.body(1_001), .close),
            (.end, .ignore)),
        Scenario(
            "after an early answer, a body past its deadline closes without a second answer",
            (.head([:], at: 0), .forward),
            (.respond([:]), .none),
            (.responseEnd, .end(.write)),
            (.clock(29.999), .ignore),
            (.clock(30), .close)),
        Scenario(
            "an early answer to a request that ends the connection drains the rest of the body, then closes",
            (.head([.connection: "close", .contentLength: "900"], at: 0), .forward),
            (.body(100), .forward),
            (.respond([:]), .none),
            (.responseEnd, .end(.writeThenDrain)),
            (.body(500), .ignore),
            (.body(300), .ignore),
            (.end, .close)),
        Scenario(
            "a drain is bounded by the request deadline",
            (.head([.connection: "close", .contentLength: "900"], at: 0), .forward),
            (.respond([:]), .none),
            (.responseEnd, .end(.writeThenDrain)),
            (.clock(30), .close)),
        Scenario(
            "a drain is bounded by the body limit",
            (.head([.connection: "close", .transferEncoding: "chunked"], at: 0), .forward),
            (.respond([:]), .none),
            (.responseEnd, .end(.writeThenDrain)),
            (.body(1_001), .close)),
        Scenario(
            "a response with Connection: close ends the connection",
            (.head([:], at: 0), .forward),
            (.end, .forward),
            (.respond(closing), .none),
            (.responseEnd, .end(.writeThenClose)),
            (.head([:], at: 1), .ignore)),
        Scenario(
            "a served connection times the next head from its first byte",
            (.head([:], at: 0), .forward),
            (.end, .forward),
            (.respond([:]), .none),
            (.responseEnd, .end(.write)),
            (.clock(40), .ignore),
            (.headBytes(at: 40), .none),
            (.clock(44.999), .ignore),
            (.clock(45), .refuse(.headTimeout, answer: true, tellReader: false))),
        Scenario(
            "pipelined requests are each answered before the connection waits again",
            (.head([:], at: 0), .forward),
            (.end, .forward),
            (.head([.contentLength: "10"], at: 0), .forward),
            (.respond([:]), .none),
            (.responseEnd, .end(.write)),
            (.body(10), .forward),
            (.end, .forward),
            (.respond([:]), .none),
            (.responseEnd, .end(.write))),
        Scenario(
            "a closed connection has no deadline left",
            (.head([:], at: 0), .forward),
            (.closed, .none),
            (.clock(30), .ignore),
            (.body(1), .ignore)),
    ]

    @Test(arguments: scenarios)
    func eachEventLeadsToItsAction(_ scenario: Scenario) {
        var state = State(limits: Self.limits)
        for (index, (event, expected)) in scenario.steps.enumerated() {
            let outcome = Self.feed(event, to: &state)
            #expect(outcome == expected, "step \(index + 1): \(event)")
        }
    }

    // MARK: - Deadlines and activity

    @Test func theDeadlineIsTheEarliestOneThatMatters() {
        var state = State(limits: Self.limits)
        #expect(state.deadline == nil, "no deadline before the first byte")
        state.headStarted(now: Self.t(1))
        #expect(state.deadline == Self.t(6))
        state.headStarted(now: Self.t(3))
        #expect(state.deadline == Self.t(6), "the head deadline runs from the first byte")
        _ = state.receivedHead(Self.request([:]), now: Self.t(4))
        #expect(state.deadline == Self.t(34), "the body deadline runs from the head")
        _ = state.writingResponseHead(HTTPResponse(status: .badRequest))
        _ = state.writingResponseEnd()
        #expect(state.deadline == Self.t(34), "a body finishing after an early answer keeps its deadline")
        state.headStarted(now: Self.t(10))  // the next head's first byte right behind the body
        #expect(state.deadline == Self.t(15))
        #expect(state.receivedEnd() == .forward)
        #expect(state.phase == .receivingHead(deadline: Self.t(15)))
        _ = state.receivedHead(Self.request([:]), now: Self.t(11))
        #expect(state.receivedEnd() == .forward)
        #expect(state.deadline == nil, "the whole request has arrived: the answer takes as long as it takes")
    }

    @Test func theConnectionTableHearsWhenTheConnectionWaitsAndWhenItIsBusy() {
        var state = State(limits: Self.limits)
        #expect(state.activity == .awaitingFirstHead)
        state.headStarted(now: Self.t(0))
        #expect(state.activity == .awaitingFirstHead, "a head arriving is still a head awaited")
        _ = state.receivedHead(Self.request([:]), now: Self.t(0))
        #expect(state.activity == .busy)
        _ = state.receivedEnd()
        _ = state.receivedHead(Self.request([:]), now: Self.t(0))  // pipelined
        _ = state.receivedEnd()
        _ = state.writingResponseHead(HTTPResponse(status: .ok))
        _ = state.writingResponseEnd()
        #expect(state.activity == .busy, "one pipelined request is still unanswered")
        _ = state.writingResponseHead(HTTPResponse(status: .ok))
        _ = state.writingResponseEnd()
        #expect(state.activity == .awaitingNextHead)
        _ = state.receivedHead(Self.request([:]), now: Self.t(1))
        _ = state.writingResponseHead(HTTPResponse(status: .badRequest))
        _ = state.writingResponseEnd()
        #expect(state.activity == .busy, "the server still reads the body of the answered request")
        _ = state.receivedEnd()
        #expect(state.activity == .awaitingNextHead)
        _ = state.parseFailed(.malformed("x"))
        #expect(state.activity == nil, "a closing connection reports nothing more")
    }

    // MARK: - Response heads

    @Test func anEarlyAnswerToARequestThatEndsTheConnectionSaysSo() {
        var early = State(limits: Self.limits)
        _ = early.receivedHead(Self.request(Self.closing), now: Self.t(0))
        #expect(early.writingResponseHead(HTTPResponse(status: .badRequest)).headerFields[.connection] == "close")

        var kept = State(limits: Self.limits)
        _ = kept.receivedHead(Self.request([:]), now: Self.t(0))
        #expect(kept.writingResponseHead(HTTPResponse(status: .badRequest)).headerFields[.connection] == nil)

        var whole = State(limits: Self.limits)
        _ = whole.receivedHead(Self.request(Self.closing), now: Self.t(0))
        _ = whole.receivedEnd()
        #expect(whole.writingResponseHead(HTTPResponse(status: .ok)).headerFields[.connection] == nil,
                "the body has arrived: the server answers as it sees fit")

        var pipelined = State(limits: Self.limits)
        _ = pipelined.receivedHead(Self.request([:]), now: Self.t(0))
        _ = pipelined.receivedEnd()
        _ = pipelined.receivedHead(Self.request(Self.closing), now: Self.t(0))
        #expect(pipelined.writingResponseHead(HTTPResponse(status: .ok)).headerFields[.connection] == nil,
                "the answer to an earlier request is not an early answer to this one")
    }

    @Test func continueIsAllowedOnlyWhileTheBodyIsAwaitedAndNothingIsAnswered() {
        var state = State(limits: Self.limits)
        #expect(!state.mayContinue)
        _ = state.receivedHead(Self.request([.expect: "100-continue", .contentLength: "10"]), now: Self.t(0))
        #expect(state.mayContinue)
        _ = state.writingResponseHead(HTTPResponse(status: .serviceUnavailable))
        #expect(!state.mayContinue)
        _ = state.writingResponseEnd()
        #expect(!state.mayContinue)
    }

    // MARK: - Refusals

    @Test func eachRefusalHasItsDocumentedError() {
        let cases: [(State.Refusal, Int, String)] = [
            (.bodyTooLarge(declared: 5_000), 413, "body_too_large"),
            (.bodyTooLarge(declared: nil), 413, "body_too_large"),
            (.chunkTooLarge(declared: nil), 413, "body_too_large"),
            (.headTimeout, 408, "request_timeout"),
            (.bodyTimeout, 408, "request_timeout"),
            (.headTooLarge, 400, "header_too_large"),
            (.malformed("a bad chunk size"), 400, "malformed_request"),
        ]
        for (refusal, status, code) in cases {
            let error = refusal.apiError(limits: Self.limits)
            #expect(error.status.code == status, "\(refusal)")
            #expect(error.code == code)
            #expect(error.headers[.connection] == "close")
        }
        let json = State.Refusal.bodyTooLarge(declared: 5_000, advice: .json).apiError(limits: Self.limits).message
        #expect(json.contains("smaller JSON body") && !json.contains("image"), "\(json)")
        let image = State.Refusal.bodyTooLarge(declared: 5_000, advice: .image).apiError(limits: Self.limits).message
        #expect(image.hasSuffix("send a smaller image"), "\(image)")
        #expect(State.Refusal.headTimeout.apiError(limits: Self.limits).message.contains("head"))
        #expect(State.Refusal.bodyTimeout.apiError(limits: Self.limits).message.contains("body"))
    }

    @Test func decoderErrorsBecomeRefusalsAndOtherErrorsDoNot() {
        #expect(State.Refusal(decoderError: HTTPParserError.headerOverflow) == .headTooLarge)
        #expect(State.Refusal(decoderError: HTTPParserError.invalidContentLength) == .malformed("a bad Content-Length"))
        #expect(State.Refusal(decoderError: HTTPParserError.invalidChunkSize) == .malformed("a bad chunk size"))
        #expect(State.Refusal(decoderError: ChannelError.ioOnClosedChannel) == nil)
    }
}
