import NIOCore

/// Whether a connection's quiesce signal waits for its first request head, as a value: the decisions
/// of ``FirstRequestGraceHandler``, tested without a channel.
struct FirstRequestGrace {
    /// Where the connection is.
    enum Phase: Equatable {
        /// No request head yet, and no quiesce signal held.
        case awaitingFirstHead
        /// A quiesce signal arrived before the first head: it is held until the head arrives or
        /// `until`, whichever comes first.
        case holdingQuiesce(until: NIODeadline)
        /// The first head has passed on: quiesce signals pass straight on.
        case headSeen
    }

    /// What to do with a quiesce signal.
    enum QuiesceAction: Equatable {
        /// Pass it on now.
        case passOn
        /// Hold it (until ``deadline``).
        case hold
        /// Drop it: one is held already, and one is passed on.
        case ignore
    }

    /// The longest a quiesce signal is held.
    let grace: Duration
    /// Where the connection is.
    private(set) var phase = Phase.awaitingFirstHead

    /// A connection that has not sent a request head yet.
    init(grace: Duration) {
        self.grace = grace
    }

    /// When a held signal is passed on if no head comes first (`nil`: none held).
    var deadline: NIODeadline? {
        if case .holdingQuiesce(let until) = phase { until } else { nil }
    }

    /// A quiesce signal arrived at `now`.
    mutating func quiesceRequested(now: NIODeadline) -> QuiesceAction {
        switch phase {
        case .awaitingFirstHead:
            phase = .holdingQuiesce(until: now + TimeAmount(grace))
            return .hold
        case .holdingQuiesce:
            return .ignore
        case .headSeen:
            return .passOn
        }
    }

    /// A request head passed on; returns whether a held signal is now passed on behind it (the request
    /// is then in progress when the signal arrives, so it is answered before the connection closes).
    mutating func receivedHead() -> Bool {
        defer { phase = .headSeen }
        if case .holdingQuiesce = phase { return true }
        return false
    }

    /// The time is now `now`; returns whether the held signal is passed on (the grace has run out, and
    /// a connection that never spoke is closed). A later signal would be held afresh.
    mutating func deadlinePassed(now: NIODeadline) -> Bool {
        guard case .holdingQuiesce(let until) = phase, now >= until else { return false }
        phase = .awaitingFirstHead
        return true
    }

    /// The connection closed: a held signal is dropped.
    mutating func connectionClosed() {
        if case .holdingQuiesce = phase { phase = .awaitingFirstHead }
    }
}
