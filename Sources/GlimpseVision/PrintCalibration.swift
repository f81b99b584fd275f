import Foundation
import Synchronization

/// Where photos of no catalog place land against one catalog, by feature print alone: the line above
/// which the matcher accepts a place on its print evidence without any geometry.
///
/// A candidate's print evidence is `e = c + w · m`: its print similarity `c` plus
/// ``MatchDecision/printMarginWeight`` times its margin `m = c − max(r, rivalFloor)` over the most
/// similar other place `r`. For each null print (``NullPrints``: photos of no catalog place) the
/// evidence of its best place in this catalog is measured; ``threshold`` is set so that at most
/// ``MatchDecision/falseMatchRate`` of them lie above it. How close the nearest place comes to a photo
/// of nothing depends on the catalog (its size, how alike its places are), so the line is measured for
/// the catalog served: when the matcher is built, and again, in the background, after every edit.
///
/// Three things make the line the catalog's own (see `VisualMatcher+Calibration.swift`):
/// - **Null prints that are copies of catalog photos are left out** (``nullsLeftOut``): a wallpaper
///   that is both in the null pool and a place of this catalog is not a photo of no place here.
/// - **The catalog calibrates itself**: each place's views, matched against the *other* places, are
///   photos of no place for them (in-domain nulls, ``catalogViewsMeasured``); the line is set over them
///   and the null prints together, so it is higher in a catalog of look-alike objects than in one of
///   places far apart.
/// - **Look-alike places get a line of their own** (``lookAlikes``): each place's photos are measured
///   against the *other* places, as photos of no place for them. A place that another place's photo
///   reaches with more evidence than ``threshold`` has its line raised above that evidence
///   (``raisedLines``), so a third object of the same kind is not taken for it on the print alone
///   (geometry still accepts it); a place alone in its region of print space keeps ``threshold``.
public struct PrintCalibration: Sendable, Hashable {
    /// A place's closest look-alike in the catalog, and its line.
    public struct LookAlike: Sendable, Hashable {
        /// The print evidence a candidate for this place must exceed to be accepted on the print alone:
        /// just above ``evidence`` when that passes the catalog's line, else the catalog's line.
        public let line: Double
        /// The place whose photo reaches this one with the most evidence.
        public let place: String
        /// That photo's print evidence for this place.
        public let evidence: Double

        /// A raised line from its parts.
        public init(line: Double, place: String, evidence: Double) {
            self.line = line
            self.place = place
            self.evidence = evidence
        }
    }

    /// The evidence at the accept line: a candidate whose evidence exceeds it is accepted on its print
    /// (unless its place has a raised line in ``lookAlikes``).
    public let threshold: Double
    /// The target share of null prints over the line.
    public let falseMatchRate: Double
    /// The null prints measured (those left out as copies of catalog photos not counted).
    public let nullCount: Int
    /// The null prints whose best place lies over the line on this catalog (at most `falseMatchRate · nullCount`).
    public let nullsOverLine: Int
    /// The number of places (groups with a print) the nulls were measured against.
    public let places: Int
    /// The null prints left out because they are copies of this catalog's photos.
    public let nullsLeftOut: Int
    /// The catalog's own views measured against the other places (the in-domain nulls).
    public let catalogViewsMeasured: Int
    /// Every place another place's photo reached, with the closest such look-alike and the place's line,
    /// by place id (``raisedLines`` are those whose line the look-alike raised).
    public let lookAlikes: [String: LookAlike]

    /// The places whose line a look-alike raised above ``threshold``.
    public var raisedLines: [String: LookAlike] { lookAlikes.filter { $0.value.line > threshold } }

    /// Creates a calibration from its parts.
    public init(
        threshold: Double, falseMatchRate: Double, nullCount: Int, nullsOverLine: Int, places: Int,
        nullsLeftOut: Int = 0, catalogViewsMeasured: Int = 0, lookAlikes: [String: LookAlike] = [:]
    ) {
        self.threshold = threshold
        self.falseMatchRate = falseMatchRate
        self.nullCount = nullCount
        self.nullsOverLine = nullsOverLine
        self.places = places
        self.nullsLeftOut = nullsLeftOut
        self.catalogViewsMeasured = catalogViewsMeasured
        self.lookAlikes = lookAlikes
    }

    /// The print evidence a candidate for `place` must exceed: its raised line, or ``threshold``.
    public func line(for place: String) -> Double {
        lookAlikes[place]?.line ?? threshold
    }

    /// This calibration with what the catalog's own places add: the nulls left out and the raised lines.
    func with(nullsLeftOut: Int, catalogViewsMeasured: Int, lookAlikes: [String: LookAlike]) -> PrintCalibration {
        PrintCalibration(
            threshold: threshold, falseMatchRate: falseMatchRate, nullCount: nullCount, nullsOverLine: nullsOverLine,
            places: places, nullsLeftOut: nullsLeftOut, catalogViewsMeasured: catalogViewsMeasured, lookAlikes: lookAlikes)
    }

    /// The line over `evidence`, the best-place evidence of each null print, and `inDomain`, that of each
    /// catalog view measured against the other places: the smallest value that at most `rate` of them
    /// all exceed (just above the `⌊rate · n⌋ + 1`-th largest). ``nullCount`` and ``nullsOverLine`` count
    /// the null prints alone.
    public static func line(over evidence: [Double], inDomain: [Double] = [], rate: Double, places: Int) -> PrintCalibration? {
        let nulls = evidence.filter(\.isFinite)
        let finite = (nulls + inDomain.filter(\.isFinite)).sorted(by: >)
        guard !nulls.isEmpty else { return nil }
        let allowed = max(0, Int((min(max(rate, 0), 1) * Double(finite.count)).rounded(.down)))
        let threshold = allowed < finite.count ? finite[allowed] + 1e-6 : -Double.infinity
        let over = nulls.filter { $0 > threshold }.count
        return PrintCalibration(
            threshold: threshold, falseMatchRate: rate, nullCount: nulls.count, nullsOverLine: over, places: places)
    }
}

extension MatchDecision {
    /// The print evidence `e = c + w · m` of a candidate with print similarity `similarity` when the most
    /// similar other place has `rival`.
    public func printEvidence(similarity: Double, rival: Double) -> Double {
        let margin = similarity - max(rival.isFinite ? rival : 0, rivalFloor)
        return similarity + printMarginWeight * margin
    }

    /// The confidence the print alone gives: `σ(printSlope · (e − line))`, exactly ``acceptLine`` at the
    /// line (the calibration's ``PrintCalibration/line(for:)`` for the candidate's place).
    public func printConfidence(similarity: Double, rival: Double, line: Double) -> Double {
        let e = printEvidence(similarity: similarity, rival: rival)
        guard e.isFinite, line.isFinite else { return 0 }
        return 1 / (1 + exp(-printSlope * (e - line)))
    }
}

/// A matcher's current print calibration, replaced when a recalibration after an edit finishes.
final class PrintCalibrationState: Sendable {
    private let state: Mutex<(calibration: PrintCalibration?, pending: Task<PrintCalibration?, Never>?)>

    init(_ calibration: PrintCalibration?) {
        state = Mutex((calibration, nil))
    }

    var calibration: PrintCalibration? { state.withLock { $0.calibration } }

    func set(_ calibration: PrintCalibration?) { state.withLock { $0.calibration = calibration } }

    /// Keeps `task` as the recalibration under way; its result replaces the calibration when it ends.
    func pending(_ task: Task<PrintCalibration?, Never>) { state.withLock { $0.pending = task } }

    /// The recalibration under way, if any.
    var task: Task<PrintCalibration?, Never>? { state.withLock { $0.pending } }
}

extension VisualMatcher {
    /// The print calibration in force (``PrintCalibration``); `nil` when the matcher has no null prints of
    /// its printer's network, and then only geometry and the logistic model accept.
    public var printCalibration: PrintCalibration? { calibrationState.calibration }

    /// Waits for a recalibration under way (after an edit) and returns the calibration in force.
    public func calibrated() async -> PrintCalibration? {
        if let task = calibrationState.task { _ = await task.value }
        return calibrationState.calibration
    }

    /// Measures the calibration again in the background; until it ends the previous one stays in force.
    ///
    /// Only the newest version of a matcher is measured: a version updated again before its measurement
    /// starts, or no longer held by anyone, keeps the line it had, so that a burst of edits costs one or two
    /// measurements rather than one per edit, and holds no superseded version in memory.
    func recalibrateInBackground() {
        guard nullPrints != nil else { return }
        let state = calibrationState
        let line = recalibrations
        let ticket = line.take()
        let task = Task.detached(priority: .utility) { [weak self] () -> PrintCalibration? in
            guard let self, line.isNewest(ticket) else { return state.calibration }
            let fresh = self.measureCalibration()
            state.set(fresh)
            return fresh
        }
        state.pending(task)
    }
}

/// The recalibrations asked for by the versions of one matcher (the one built and those updated or
/// compacted from it), numbered, so that a measurement skips a version a newer one has superseded.
final class RecalibrationLine: Sendable {
    private let newest = Mutex<UInt64>(0)

    /// A number for a new recalibration, newer than every one before.
    func take() -> UInt64 {
        newest.withLock { value in
            value &+= 1
            return value
        }
    }

    /// Whether no recalibration was asked for after `ticket`.
    func isNewest(_ ticket: UInt64) -> Bool { newest.withLock { $0 == ticket } }
}
