import ArgumentParser
import GlimpseVision

/// `--keypoint-slots` and its settings: the compact regime for catalogs of 10⁵ photos and more, where each
/// reference photo's keypoints live in a file on disk and memory holds only what the keypoint shortlist
/// indexes (`docs/architecture.md` says where the line between the regimes lies).
struct LargeCatalogOptions: ParsableArguments {
    /// What the compact regime keeps per reference photo unless told otherwise: the settings its 10⁴–10⁶
    /// measurements were made with (`Benchmarks/results/2026-11-28-print-codes.md`).
    static let compactReferenceKeypoints = 640
    /// See ``compactReferenceKeypoints``.
    static let compactIndexedKeypoints = 128
    /// See ``compactReferenceKeypoints``.
    static let compactTables = 3
    /// The compact regime's shortlist searches buckets of up to this many descriptors (the default skips those
    /// of more than 64), reading those of more than ``compactContiguousBucketLine`` from contiguous copies:
    /// at 10⁵–10⁶ the crowded buckets hold many places' true matches
    /// (`Benchmarks/results/2026-12-07-contiguous-buckets.md`).
    static let compactBucketCap = 256
    /// See ``compactBucketCap``.
    static let compactContiguousBucketLine = 64

    @Option(name: .customLong("keypoint-slots"), help: ArgumentHelp("""
        For catalogs of 100,000 photos and more: write each reference photo's keypoints to this file (replaced at \
        every build; kept beside --matcher-index, which loads it again) and verify from it, holding in memory \
        only the keypoints the shortlist indexes. Unless set otherwise it keeps \
        \(Self.compactReferenceKeypoints) keypoints a photo, indexes \(Self.compactIndexedKeypoints) and builds \
        \(Self.compactTables) hash tables: about 11 KB of memory a photo instead of 73-107 KB. On a store, \
        give --matcher-index too, or each start rebuilds both.
        """, valueName: "file"))
    var keypointSlots: String?

    @Option(name: .customLong("reference-keypoints"), help: ArgumentHelp(
        "Keep at most N keypoints per reference photo, chosen from those extracted (queries keep theirs); with --keypoint-slots \(Self.compactReferenceKeypoints) unless set.",
        valueName: "N"))
    var referenceKeypoints: Int?

    @Option(name: .customLong("indexed-keypoints"), help: ArgumentHelp(
        "Index at most N keypoints per reference photo for the shortlist (verification compares all it keeps); with --keypoint-slots \(Self.compactIndexedKeypoints) unless set.",
        valueName: "N"))
    var indexedKeypoints: Int?

    @Option(name: .customLong("lsh-tables"), help: ArgumentHelp(
        "Build the keypoint shortlist's index with N hash tables (default 6; with --keypoint-slots \(Self.compactTables)).",
        valueName: "N"))
    var lshTables: Int?

    /// Whether any of these options was given.
    var isSet: Bool { keypointSlots != nil || referenceKeypoints != nil || indexedKeypoints != nil || lshTables != nil }

    func validate() throws {
        for (name, value) in [("--reference-keypoints", referenceKeypoints), ("--indexed-keypoints", indexedKeypoints)] {
            if let value, value < 2 { throw ValidationError("\(name) must be at least 2, got \(value)") }
        }
        if let lshTables, !(1...32).contains(lshTables) {
            throw ValidationError("--lsh-tables must be 1 to 32, got \(lshTables)")
        }
        if let referenceKeypoints, let indexedKeypoints, indexedKeypoints > referenceKeypoints {
            throw ValidationError("--indexed-keypoints (\(indexedKeypoints)) cannot exceed --reference-keypoints (\(referenceKeypoints)): only kept keypoints can be indexed")
        }
    }

    /// `base` with these options' keypoint limits and table count (the compact regime's unless set, with
    /// `--keypoint-slots`); the shortlists that look in fewer tables look in at most as many as there are.
    func applied(to base: VisionConfiguration) -> VisionConfiguration {
        var vision = base
        let compact = keypointSlots != nil
        if let limit = referenceKeypoints ?? (compact ? Self.compactReferenceKeypoints : nil) {
            vision.referenceKeypointLimit = limit
        }
        if let limit = indexedKeypoints ?? (compact ? Self.compactIndexedKeypoints : nil) {
            vision.indexedKeypointLimit = limit
        }
        if compact {
            vision.lshBucketCap = Self.compactBucketCap
            vision.lshContiguousBucketLine = Self.compactContiguousBucketLine
        }
        if let tables = lshTables ?? (compact ? Self.compactTables : nil) {
            vision.lshTables = tables
            vision.printedShortlistTables = min(vision.printedShortlistTables, tables)
            vision.mirrorProbeTables = min(vision.mirrorProbeTables, tables)
        }
        return vision
    }
}
