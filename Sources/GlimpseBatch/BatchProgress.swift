#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GlimpseBasics

/// A live progress line on standard error (done / total, rate, ETA), drawn only when standard
/// error is a terminal and at most a few times per second.
public struct BatchProgress {
    /// Whether anything is drawn (standard error is a terminal).
    public let isEnabled: Bool
    /// The number of files to process in this run, when known.
    public var total: Int?
    private var done = 0
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant

    /// Creates a progress line; it draws only when `enabled` (default: standard error is a terminal).
    public init(total: Int?, enabled: Bool = BatchProgress.stderrIsTerminal) {
        self.isEnabled = enabled
        self.total = total
        self.start = clock.now
        self.lastDraw = start
    }

    /// Whether standard error is a terminal.
    public static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Counts one finished file and redraws if enough time has passed.
    public mutating func advance() {
        done += 1
        guard isEnabled else { return }
        let now = clock.now
        guard now - lastDraw >= .milliseconds(200) else { return }
        lastDraw = now
        Self.writeError("\r\u{1B}[K" + text(now: now))
    }

    /// Erases the progress line.
    public func finish() {
        guard isEnabled else { return }
        Self.writeError("\r\u{1B}[K")
    }

    /// The progress text at `now`, such as `120/400  9.8 files/s  ETA 29 s`.
    func text(now: ContinuousClock.Instant) -> String {
        let seconds = (now - start).seconds
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var line = total.map { "\(done)/\($0)" } ?? "\(done)"
        line += "  \(format(rate, 1)) files/s"
        if let total, rate > 0 {
            line += "  ETA \(Int((Double(max(0, total - done)) / rate).rounded())) s"
        }
        return line
    }

    /// Writes `text` to standard error, unbuffered.
    public static func writeError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count)
        }
    }
}
