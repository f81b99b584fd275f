import Synchronization

/// Lets one message of a kind through per interval and counts the ones held back, so that clients
/// who trigger a message on every request (an overloaded daemon's `503`s) cannot fill the log.
final class LogThrottle: Sendable {
    private struct State {
        var lastLogged: ContinuousClock.Instant?
        var suppressed = 0
    }

    private let interval: Duration
    private let state = Mutex(State())

    /// Creates a throttle letting one message through per `interval`.
    init(interval: Duration) {
        self.interval = interval
    }

    /// Whether a message may be logged at `now`; when it may, also how many were held back since the
    /// last one logged.
    func admit(now: ContinuousClock.Instant = .now) -> (admitted: Bool, suppressed: Int) {
        state.withLock { state in
            if let last = state.lastLogged, now - last < interval {
                state.suppressed += 1
                return (false, 0)
            }
            defer { state.suppressed = 0 }
            state.lastLogged = now
            return (true, state.suppressed)
        }
    }
}
