@testable import GlimpseServer
import Testing

@Suite("Log throttle")
struct LogThrottleTests {
    @Test func oneMessagePerIntervalAndTheNextCountsTheHeldBack() {
        let throttle = LogThrottle(interval: .seconds(10))
        let start = ContinuousClock.now
        #expect(throttle.admit(now: start) == (true, 0))
        for second in 1...9 {
            #expect(throttle.admit(now: start + .seconds(second)) == (false, 0))
        }
        #expect(throttle.admit(now: start + .seconds(10)) == (true, 9))
        #expect(throttle.admit(now: start + .seconds(11)) == (false, 0))
        #expect(throttle.admit(now: start + .seconds(30)) == (true, 1))
        #expect(throttle.admit(now: start + .seconds(41)) == (true, 0))
    }
}
