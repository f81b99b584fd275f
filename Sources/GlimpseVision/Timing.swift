#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point in time on both the wall clock and the calling thread's CPU clock, for stage timings.
///
/// Wall time is what a caller waits; thread CPU time is the work done, which stays meaningful
/// when other processes compete for the cores.
public struct StageInstant: Sendable {
    /// Wall-clock nanoseconds (monotonic).
    public let wallNanoseconds: UInt64
    /// CPU nanoseconds used by the calling thread.
    public let cpuNanoseconds: UInt64

    /// The current instant.
    public static func now() -> StageInstant {
        StageInstant(wallNanoseconds: Self.read(CLOCK_MONOTONIC), cpuNanoseconds: Self.read(CLOCK_THREAD_CPUTIME_ID))
    }

    /// The wall time and the thread CPU time from `self` to `later`.
    public func elapsed(to later: StageInstant) -> (wall: Duration, cpu: Duration) {
        (Self.duration(later.wallNanoseconds &- wallNanoseconds), Self.duration(later.cpuNanoseconds &- cpuNanoseconds))
    }

    /// `nanoseconds` as a duration (saturating; a difference of two readings never comes near).
    private static func duration(_ nanoseconds: UInt64) -> Duration {
        .nanoseconds(Int64(clamping: nanoseconds))
    }

    private static func read(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
