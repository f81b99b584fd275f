import HTTPTypes
import NIOCore

/// What the request guard knows about its connection, as a value: where the connection is in its
/// request–response cycle, and what the guard must do about each thing that happens on it.
///
/// Every event is a `mutating` method that takes the time where the time matters and returns what to
/// do (hand a part on, drop it, refuse the request, close); the deadlines are in the phases themselves,
/// and ``deadline`` says when the guard must next be told the time (``deadlinePassed(now:)``). The
/// ``RequestGuardHandler`` feeds the events and carries out the actions; this type touches no channel
/// and reads no clock, so it is tested as a plain value.
struct RequestGuardState {
    /// The limits the guard enforces.
    struct Limits: Sendable, Equatable {
        /// The largest request body accepted, in bytes.
        var maxBodyBytes: Int
        /// The largest request head, in bytes (enforced by the decoder; named in its error).
        var maxHeaderBytes: Int
        /// How long a request head may take from its first byte.
        var headerTimeout: Duration
        /// How long a request body may take from the end of its head.
        var requestDeadline: Duration
    }

    /// Where the connection is.
    enum Phase: Equatable {
        /// Between requests, with no byte of the next head yet: a silent connection is the idle
        /// timeout's business, not the guard's.
        case awaitingHead
        /// The first byte of a request head has arrived; the whole head is due by `deadline`.
        case receivingHead(deadline: NIODeadline)
        /// Requests have been handed on and not all of them answered.
        case exchanging(Exchange)
        /// The last response ended before its request's body did, on a connection that stays open: the
        /// rest of the body is still handed on (the server reads it before the next request), within
        /// the body limit and deadline. `nextHeadDeadline` is the head deadline of a next request whose
        /// first byte arrived right behind the body.
        case finishingBody(Body, nextHeadDeadline: NIODeadline?)
        /// The last response ended before its request's body did, and the connection closes after it:
        /// nothing downstream reads any more, so the guard reads the rest of the body and drops it (a
        /// client that writes its whole body before reading is not left blocked), then closes.
        case draining(Body)
        /// The connection is closing: nothing more is handed on or answered.
        case closing
    }

    /// A request body while it arrives.
    struct Body: Equatable {
        /// The bytes of it so far.
        var bytes: Int
        /// When the whole of it is due.
        var deadline: NIODeadline
    }

    /// The requests handed on and not yet answered.
    struct Exchange: Equatable {
        /// Requests handed on and not answered yet (more than one when a client pipelines).
        var unanswered: Int
        /// The body of the latest request while it arrives; `nil` once it has all arrived.
        var body: Body?
        /// Whether the latest request asked to close the connection after it (`Connection: close`).
        var asksClose: Bool
        /// The response being written, to the earliest unanswered request.
        var response: Response
    }

    /// The response being written.
    enum Response: Equatable {
        /// Its head has not been written.
        case notStarted
        /// Its head has been written; `closesConnection`: with `Connection: close`.
        case started(closesConnection: Bool)
    }

    /// What to do about an event from the client's side or the clock.
    enum Action: Equatable {
        /// Hand the request part on.
        case forward
        /// Nothing: drop the part, if there is one.
        case ignore
        /// Close the connection without a word (the request has been answered already).
        case close
        /// Cut the request short with `refusal`: answer it when `answer` (no response has started),
        /// tell a reader of the request's body when `tellReader`, and close.
        case refuse(Refusal, answer: Bool, tellReader: Bool)
    }

    /// What to do with the end of a response.
    enum ResponseEndAction: Equatable {
        /// Write it; the connection stays open.
        case write
        /// Write it, then close the connection once it is written.
        case writeThenClose
        /// Write it, then read and drop the rest of the request body; the connection closes when the
        /// body ends.
        case writeThenDrain
    }

    /// The limits enforced.
    let limits: Limits
    /// Where the connection is.
    private(set) var phase = Phase.awaitingHead
    /// Whether a response has ended on this connection (a connection waiting for its next head is
    /// evicted after those still waiting for their first).
    private(set) var hasAnswered = false

    /// A guard for a new connection, waiting for its first head.
    init(limits: Limits) {
        self.limits = limits
    }

    // MARK: - What the guard reports

    /// When the guard must next be told the time: the earliest deadline pending (`nil`: none).
    var deadline: NIODeadline? {
        switch phase {
        case .awaitingHead, .closing: nil
        case .receivingHead(let deadline): deadline
        case .exchanging(let exchange): exchange.body?.deadline
        case .finishingBody(let body, let next): next.map { min($0, body.deadline) } ?? body.deadline
        case .draining(let body): body.deadline
        }
    }

    /// What the connection table should record for this connection (`nil` once it is closing).
    var activity: ConnectionTable<ObjectIdentifier>.Activity? {
        switch phase {
        case .awaitingHead, .receivingHead: hasAnswered ? .awaitingNextHead : .awaitingFirstHead
        case .exchanging, .finishingBody, .draining: .busy
        case .closing: nil
        }
    }

    /// Whether the guard reads the request body itself (draining it before closing).
    var isDraining: Bool {
        if case .draining = phase { true } else { false }
    }

    /// Whether `100 Continue` may be sent: the request being answered is the one whose body is awaited,
    /// and its response has not started.
    var mayContinue: Bool {
        guard case .exchanging(let exchange) = phase else { return false }
        return exchange.unanswered == 1 && exchange.body != nil && exchange.response == .notStarted
    }

    // MARK: - Events from the client's side

    /// The first byte of a request head arrived (seen in the raw bytes, before the decoder has the head):
    /// the head deadline starts, unless a request is in progress (a pipelined head is not timed) or the
    /// connection closes after the current one.
    mutating func headStarted(now: NIODeadline) {
        switch phase {
        case .awaitingHead:
            phase = .receivingHead(deadline: now + TimeAmount(limits.headerTimeout))
        case .finishingBody(let body, nextHeadDeadline: nil):
            phase = .finishingBody(body, nextHeadDeadline: now + TimeAmount(limits.headerTimeout))
        case .receivingHead, .finishingBody, .exchanging, .draining, .closing:
            break
        }
    }

    /// A request head arrived at `now`: handed on with its body deadline started, or refused at once
    /// when its `Content-Length` is over the body limit (its body is then never read).
    mutating func receivedHead(_ head: HTTPRequest, now: NIODeadline) -> Action {
        var exchange = Exchange(unanswered: 1, body: nil, asksClose: false, response: .notStarted)
        switch phase {
        case .draining, .closing:
            return .ignore
        case .exchanging(let current):
            exchange = current
            exchange.unanswered += 1
        case .awaitingHead, .receivingHead, .finishingBody:
            break
        }
        if let text = head.headerFields[.contentLength], let length = Int(text), length > limits.maxBodyBytes {
            phase = .closing
            let advice = APIError.BodyAdvice(contentType: head.headerFields[.contentType])
            return .refuse(
                .bodyTooLarge(declared: length, advice: advice), answer: exchange.response == .notStarted, tellReader: true)
        }
        exchange.body = Body(bytes: 0, deadline: now + TimeAmount(limits.requestDeadline))
        exchange.asksClose = head.headerFields[.connection]?.lowercased() == "close"
        phase = .exchanging(exchange)
        return .forward
    }

    /// `count` bytes of the request body arrived.
    mutating func receivedBody(count: Int) -> Action {
        switch phase {
        case .exchanging(var exchange):
            guard var body = exchange.body else { return .forward }
            body.bytes += count
            guard body.bytes <= limits.maxBodyBytes else { return cutShort(.bodyTooLarge(declared: nil)) }
            exchange.body = body
            phase = .exchanging(exchange)
            return .forward
        case .finishingBody(var body, let next):
            body.bytes += count
            guard body.bytes <= limits.maxBodyBytes else { return close() }
            phase = .finishingBody(body, nextHeadDeadline: next)
            return .forward
        case .draining(var body):
            body.bytes += count
            guard body.bytes <= limits.maxBodyBytes else { return close() }
            phase = .draining(body)
            return .ignore
        case .closing:
            return .ignore
        case .awaitingHead, .receivingHead:
            return .forward
        }
    }

    /// The request body ended.
    mutating func receivedEnd() -> Action {
        switch phase {
        case .exchanging(var exchange):
            exchange.body = nil
            phase = .exchanging(exchange)
            return .forward
        case .finishingBody(_, let next):
            phase = next.map { .receivingHead(deadline: $0) } ?? .awaitingHead
            return .forward
        case .draining:
            return close()
        case .closing:
            return .ignore
        case .awaitingHead, .receivingHead:
            return .forward
        }
    }

    /// A chunk declared a size that takes the body past the limit (`nil`: past 2^64 - 1).
    mutating func chunkTooLarge(declared: UInt64?) -> Action {
        if case .closing = phase { return .ignore }
        return cutShort(.chunkTooLarge(declared: declared))
    }

    /// The HTTP decoder could not parse the input; it reads nothing more. (Once the connection is
    /// closing, its complaint about the cut-off input is moot.)
    mutating func parseFailed(_ refusal: Refusal) -> Action {
        if case .closing = phase { return .ignore }
        return cutShort(refusal)
    }

    /// The connection closed.
    mutating func connectionClosed() {
        phase = .closing
    }

    // MARK: - Events from the server's side

    /// A response head is about to be written (not an informational one): returns the head to write.
    /// An answer sent before the body of a request that ends the connection says so (`Connection: close`),
    /// since the body is drained and the connection closed after it.
    mutating func writingResponseHead(_ head: HTTPResponse) -> HTTPResponse {
        guard case .exchanging(var exchange) = phase else { return head }
        var head = head
        if exchange.unanswered == 1, exchange.body != nil, exchange.asksClose {
            head.headerFields[.connection] = "close"
        }
        exchange.response = .started(closesConnection: head.headerFields[.connection]?.lowercased() == "close")
        phase = .exchanging(exchange)
        return head
    }

    /// A response end is about to be written.
    mutating func writingResponseEnd() -> ResponseEndAction {
        guard case .exchanging(var exchange) = phase else { return .write }
        hasAnswered = true
        exchange.unanswered -= 1
        if exchange.response == .started(closesConnection: true) {
            guard let body = exchange.body else {
                phase = .closing
                return .writeThenClose
            }
            phase = .draining(body)
            return .writeThenDrain
        }
        if exchange.unanswered > 0 {
            exchange.response = .notStarted
            phase = .exchanging(exchange)
        } else if let body = exchange.body {
            phase = .finishingBody(body, nextHeadDeadline: nil)
        } else {
            phase = .awaitingHead
        }
        return .write
    }

    // MARK: - The clock

    /// The time is now `now` (at or after ``deadline``): what has run out, and what to do about it.
    mutating func deadlinePassed(now: NIODeadline) -> Action {
        switch phase {
        case .receivingHead(let deadline) where now >= deadline:
            return cutShort(.headTimeout)
        case .exchanging(let exchange):
            guard let body = exchange.body, now >= body.deadline else { return .ignore }
            return cutShort(.bodyTimeout)
        case .finishingBody(let body, let next):
            if now >= body.deadline { return close() }
            if let next, now >= next { return cutShort(.headTimeout) }
            return .ignore
        case .draining(let body) where now >= body.deadline:
            return close()
        case .awaitingHead, .receivingHead, .draining, .closing:
            return .ignore
        }
    }

    // MARK: - Private

    /// Refuses the current request with `refusal`: answered unless a response has started, its reader
    /// told while a request is in progress; the connection then closes.
    private mutating func cutShort(_ refusal: Refusal) -> Action {
        let action: Action
        if case .exchanging(let exchange) = phase {
            action = .refuse(refusal, answer: exchange.response == .notStarted, tellReader: true)
        } else {
            action = .refuse(refusal, answer: true, tellReader: false)
        }
        phase = .closing
        return action
    }

    /// Closes without a word (the request was answered already).
    private mutating func close() -> Action {
        phase = .closing
        return .close
    }
}
