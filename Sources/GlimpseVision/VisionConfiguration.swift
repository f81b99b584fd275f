/// Every tunable of feature extraction, the shortlist, geometric verification and the decision.
///
/// The defaults were calibrated on the sample catalog with queries made by `distort.py`; see the
/// figures in `docs/performance.md` or the eval output. Two
/// configurations that differ in any extraction field produce incompatible features, which is why
/// ``extractionFingerprint`` is part of the feature cache key.
public struct VisionConfiguration: Sendable, Hashable, Codable {
    /// Reference images are resampled so their long side is at most this many pixels before detection.
    public var maxLongSide: Int
    /// Query images are resampled so their long side is at most this many pixels (the pyramids
    /// bridge the scale difference to the references); smaller is faster.
    public var queryMaxLongSide: Int
    /// Images whose long side is smaller are enlarged up to this many pixels (0 disables enlarging).
    public var minLongSide: Int
    /// The most keypoints kept per image (spread over the pyramid levels in proportion to their area).
    public var maxKeypoints: Int
    /// Reference photos spread each pyramid level's keypoints over a grid of this many cells a side: a
    /// cell keeps at most twice its even share of the level's budget, strongest first, before the
    /// strongest of the rest fill the budget (1 keeps the strongest alone, as queries do). A camera
    /// picture showing a small or plain part of the scene then still finds reference keypoints there.
    public var referenceKeypointGrid: Int
    /// When set, each reference keeps at most this many of its keypoints, chosen by
    /// ``CompactFeatures/reduced(_:to:cells:)`` from those extracted (``maxKeypoints``); queries keep
    /// theirs. `nil`, the default, keeps them all. Not an extraction setting: stored features serve any
    /// limit.
    public var referenceKeypointLimit: Int? = nil
    /// When set, the shortlist's vote indexes at most this many of each reference's keypoints, chosen as
    /// ``CompactFeatures/reduced(_:to:cells:)`` chooses them from the middle of the picture
    /// (``indexedKeypointCentre``), while verification still compares all the
    /// reference keeps: a smaller index for very large catalogs. `nil`, the default, indexes them all.
    public var indexedKeypointLimit: Int? = nil
    /// With ``indexedKeypointLimit``, the indexed keypoints are chosen from the centred box of this share of
    /// each side of the reference, grown when it holds too few (``CompactFeatures/centralIndices(_:limit:cells:central:)``):
    /// the part of a photo another picture of the place most often shows. 0.4 by default, where the indexed
    /// keypoints of 159 photos of no catalog place held 2.7 times the verified matches of two strong camera-like
    /// copies of each that a spread over the whole picture held; 1 spreads them over the whole picture.
    public var indexedKeypointCentre: Double = 0.4
    /// A block of references holding at least this many feature-print views keeps them as one-bit codes in
    /// an inverted file instead of 32-bit floats (168 bytes a view instead of 5,120), and a query's print
    /// is compared with the codes of the lists nearest to it instead of every view: the line between the
    /// small-catalog regime (an exact scan) and the large one. 4,096 views is about 585 references, where
    /// the exact scan costs about 1.5 ms a query. Not an extraction setting: a matcher index records it.
    public var printCodeLine: Int = 4_096
    /// With print codes: how many lists a query probes, and how many of their codes, nearest by Hamming
    /// distance to the query's code, have their similarity estimated.
    public var printCodeProbe: Int = 8
    /// See ``printCodeProbe``.
    public var printCodeShortlist: Int = 1_024
    /// With print codes: of how many groups nearest by print the ones with the most keypoint votes are
    /// verified besides the print's own nearest (``printShortlistSize`` of each); 0 turns that off.
    public var printVoteDepth: Int = 64
    /// With print codes in the compact regime (``indexedKeypointLimit``), when the print's own nearest leave a
    /// picture unaccepted: of how many groups nearest by print the ones whose in-memory keypoints agree most
    /// with the query's are verified next (``printShortlistSize`` of them, each with at least 2 agreeing
    /// descriptors); 0 turns that off. At a million references the keypoint votes are crowded out
    /// (`Benchmarks/results/2026-11-29-crowded-votes.md`).
    public var printAgreementDepth: Int = 64
    /// The number of pyramid levels, level 0 being the resampled image.
    public var pyramidLevels: Int
    /// The scale step between consecutive pyramid levels (greater than 1).
    public var pyramidScale: Double
    /// FAST intensity threshold: a ring pixel counts as brighter or darker when it differs by more.
    public var fastThreshold: Int
    /// FAST threshold used on a level that yields too few corners with ``fastThreshold``.
    public var fastFallbackThreshold: Int
    /// Whether levels are stretched to the full range before detection (see ``GrayImage/contrastStretched()``).
    public var contrastStretch: Bool
    /// The seed of the deterministic BRIEF sampling pattern.
    public var patternSeed: UInt64

    /// Number of LSH tables over the reference descriptors used by the shortlist.
    public var lshTables: Int
    /// Bits per LSH key when the index holds few descriptors; grows with the index (see ``LSHIndex``).
    public var lshBits: Int
    /// Buckets holding more descriptors than this are skipped by shortlist lookups (0 = never):
    /// crowded buckets hold generic, uninformative descriptors and cost most of the lookup time.
    public var lshBucketCap: Int
    /// Buckets holding more descriptors than this (and no more than ``lshBucketCap``) are read from
    /// contiguous copies of their descriptors, made when the shortlist index is built or loaded
    /// (``LSHIndex/copyingCrowdedBuckets(of:over:upTo:)``), so that a large catalog can search buckets it
    /// would otherwise skip as too slow to read entry by entry; 0 = no copies. The answers are those of
    /// ``lshBucketCap`` alone; only the memory (32 bytes per copied entry) and the time differ. 32 by default:
    /// at 10⁴ references that halves the shortlist's time for a third more memory, and at 91 it costs 3 MB
    /// (`Benchmarks/results/2026-12-07-huge-pages.md`); the compact regime copies from 64.
    public var lshContiguousBucketLine: Int = 32
    /// The number of candidate places passed from the shortlist to geometric verification.
    public var shortlistSize: Int
    /// The number of candidates verified for the mirror image in the mirror cascade: the keypoint
    /// shortlist's first, or, when the query's feature print was compared, the references nearest by print.
    public var mirrorShortlistSize: Int
    /// A shortlist vote counts only when the nearest reference descriptor is at most this far (bits).
    public var voteMaxDistance: Int

    /// Lowe ratio: a match is kept when nearest < ratio × second nearest.
    public var ratio: Double
    /// A match is kept only when its Hamming distance is at most this many bits.
    public var matchMaxDistance: Int
    /// RANSAC iterations per candidate.
    public var ransacIterations: Int
    /// RANSAC inlier threshold as a fraction of the reference image's long side.
    public var ransacThresholdFraction: Double
    /// The allowed range of the similarity scale between query and reference.
    public var ransacScaleRange: ClosedRange<Double>

    /// A candidate is accepted as the place shown when its score reaches this value.
    public var acceptScore: Int
    /// Verification stops early once a candidate scores at least this much (it cannot be a look-alike).
    public var decisiveScore: Int
    /// When no candidate reaches ``acceptScore``, the mirrored query is matched too.
    public var mirrorCascade: Bool
    /// With a feature printer, before the network runs for a query the keypoints did not decide: how many
    /// candidates of a quick keypoint shortlist of the mirror image (over ``mirrorProbeTables`` of the LSH
    /// tables) are verified. A mirror image decided by keypoints needs no feature print; 0 turns the probe off.
    public var mirrorProbeSize: Int
    /// How many of the LSH tables the mirror probe's shortlist looks in (at most ``lshTables``).
    public var mirrorProbeTables: Int
    /// With a feature printer, how many of the LSH tables the first keypoint shortlist looks in (at most
    /// ``lshTables``): the print names the references a thinner keypoint shortlist misses, so fewer tables
    /// lose no answer there, while matching on keypoints alone keeps every table.
    public var printedShortlistTables: Int
    /// With a feature printer: how many references with the nearest feature prints are verified besides
    /// the keypoint shortlist.
    public var printShortlistSize: Int
    /// How a candidate's score and print similarity become its confidence, and so the accept decision.
    public var decision: MatchDecision

    /// Creates a configuration; every parameter defaults to the value of ``default``.
    public init(
        maxLongSide: Int = 640,
        queryMaxLongSide: Int = 512,
        minLongSide: Int = 0,
        maxKeypoints: Int = 1000,
        referenceKeypointGrid: Int = 16,
        pyramidLevels: Int = 8,
        pyramidScale: Double = 1.2,
        fastThreshold: Int = 20,
        fastFallbackThreshold: Int = 8,
        contrastStretch: Bool = true,
        patternSeed: UInt64 = 0x6c69_6d70_7365,
        lshTables: Int = 6,
        lshBits: Int = 12,
        lshBucketCap: Int = 64,
        shortlistSize: Int = 8,
        mirrorShortlistSize: Int = 4,
        mirrorProbeSize: Int = 2,
        mirrorProbeTables: Int = 2,
        printedShortlistTables: Int = 4,
        voteMaxDistance: Int = 64,
        ratio: Double = 0.8,
        matchMaxDistance: Int = 80,
        ransacIterations: Int = 300,
        ransacThresholdFraction: Double = 0.01,
        ransacScaleRange: ClosedRange<Double> = 0.2...5.0,
        acceptScore: Int = 10,
        decisiveScore: Int = 30,
        mirrorCascade: Bool = true,
        printShortlistSize: Int = 2,
        decision: MatchDecision = .default
    ) {
        self.printShortlistSize = printShortlistSize
        self.decision = decision
        self.maxLongSide = maxLongSide
        self.queryMaxLongSide = queryMaxLongSide
        self.minLongSide = minLongSide
        self.maxKeypoints = maxKeypoints
        self.referenceKeypointGrid = referenceKeypointGrid
        self.pyramidLevels = pyramidLevels
        self.pyramidScale = pyramidScale
        self.fastThreshold = fastThreshold
        self.fastFallbackThreshold = fastFallbackThreshold
        self.contrastStretch = contrastStretch
        self.patternSeed = patternSeed
        self.lshTables = lshTables
        self.lshBits = lshBits
        self.lshBucketCap = lshBucketCap
        self.shortlistSize = shortlistSize
        self.mirrorShortlistSize = mirrorShortlistSize
        self.mirrorProbeSize = mirrorProbeSize
        self.mirrorProbeTables = mirrorProbeTables
        self.printedShortlistTables = printedShortlistTables
        self.voteMaxDistance = voteMaxDistance
        self.ratio = ratio
        self.matchMaxDistance = matchMaxDistance
        self.ransacIterations = ransacIterations
        self.ransacThresholdFraction = ransacThresholdFraction
        self.ransacScaleRange = ransacScaleRange
        self.acceptScore = acceptScore
        self.decisiveScore = decisiveScore
        self.mirrorCascade = mirrorCascade
    }

    /// The calibrated configuration used by the catalog and the CLI.
    public static let `default` = VisionConfiguration()

    /// A stable text of the fields that change extracted features; equal text means compatible features.
    public var extractionFingerprint: String {
        "v2;long=\(maxLongSide);min=\(minLongSide);kp=\(maxKeypoints);grid=\(referenceKeypointGrid);"
            + "levels=\(pyramidLevels);"
            + "scale=\(pyramidScale);fast=\(fastThreshold)/\(fastFallbackThreshold);"
            + "stretch=\(contrastStretch);seed=\(patternSeed)"
    }

    /// Checks that every field is in range.
    ///
    /// - Throws: ``VisionError/invalidConfiguration(_:)`` naming the first field out of range.
    public func validate() throws(VisionError) {
        func check(_ ok: Bool, _ message: String) throws(VisionError) {
            if !ok { throw .invalidConfiguration(message) }
        }
        try check(maxLongSide >= 64 && maxLongSide <= 4096, "maxLongSide must be in 64...4096, got \(maxLongSide)")
        try check(queryMaxLongSide >= 64 && queryMaxLongSide <= 4096,
                  "queryMaxLongSide must be in 64...4096, got \(queryMaxLongSide)")
        try check(minLongSide >= 0 && minLongSide <= maxLongSide, "minLongSide must be in 0...maxLongSide, got \(minLongSide)")
        try check(maxKeypoints >= 8 && maxKeypoints <= 20_000, "maxKeypoints must be in 8...20000, got \(maxKeypoints)")
        try check(referenceKeypointGrid >= 1 && referenceKeypointGrid <= 64,
                  "referenceKeypointGrid must be in 1...64, got \(referenceKeypointGrid)")
        if let referenceKeypointLimit {
            try check(referenceKeypointLimit >= 8 && referenceKeypointLimit <= maxKeypoints,
                      "referenceKeypointLimit must be in 8...maxKeypoints (\(maxKeypoints)), got \(referenceKeypointLimit)")
        }
        if let indexedKeypointLimit {
            try check(indexedKeypointLimit >= 8 && indexedKeypointLimit <= maxKeypoints,
                      "indexedKeypointLimit must be in 8...maxKeypoints (\(maxKeypoints)), got \(indexedKeypointLimit)")
        }
        try check(indexedKeypointCentre > 0 && indexedKeypointCentre <= 1,
                  "indexedKeypointCentre must be in (0, 1], got \(indexedKeypointCentre)")
        try check(printCodeLine >= 1, "printCodeLine must be at least 1, got \(printCodeLine)")
        try check(printCodeProbe >= 1 && printCodeProbe <= 256, "printCodeProbe must be in 1...256, got \(printCodeProbe)")
        try check(printVoteDepth >= 0, "printVoteDepth must be at least 0, got \(printVoteDepth)")
        try check(printAgreementDepth >= 0, "printAgreementDepth must be at least 0, got \(printAgreementDepth)")
        try check(printCodeShortlist >= 1, "printCodeShortlist must be at least 1, got \(printCodeShortlist)")
        try check(pyramidLevels >= 1 && pyramidLevels <= 16, "pyramidLevels must be in 1...16, got \(pyramidLevels)")
        try check(pyramidScale > 1.01 && pyramidScale <= 2, "pyramidScale must be in (1.01, 2], got \(pyramidScale)")
        try check(fastThreshold >= 1 && fastThreshold <= 254, "fastThreshold must be in 1...254, got \(fastThreshold)")
        try check(fastFallbackThreshold >= 1 && fastFallbackThreshold <= fastThreshold,
                  "fastFallbackThreshold must be in 1...fastThreshold, got \(fastFallbackThreshold)")
        try check(lshTables >= 1 && lshTables <= 32, "lshTables must be in 1...32, got \(lshTables)")
        try check(lshBits >= 4 && lshBits <= 24, "lshBits must be in 4...24, got \(lshBits)")
        try check(lshBucketCap >= 0, "lshBucketCap must be at least 0, got \(lshBucketCap)")
        try check(lshContiguousBucketLine >= 0, "lshContiguousBucketLine must be at least 0, got \(lshContiguousBucketLine)")
        try check(shortlistSize >= 1, "shortlistSize must be at least 1, got \(shortlistSize)")
        try check(mirrorShortlistSize >= 1, "mirrorShortlistSize must be at least 1, got \(mirrorShortlistSize)")
        try check(mirrorProbeSize >= 0, "mirrorProbeSize must be at least 0, got \(mirrorProbeSize)")
        try check(mirrorProbeTables >= 1, "mirrorProbeTables must be at least 1, got \(mirrorProbeTables)")
        try check(printedShortlistTables >= 1, "printedShortlistTables must be at least 1, got \(printedShortlistTables)")
        try check(ratio > 0 && ratio <= 1, "ratio must be in (0, 1], got \(ratio)")
        try check(ransacIterations >= 1, "ransacIterations must be at least 1, got \(ransacIterations)")
        try check(ransacThresholdFraction > 0 && ransacThresholdFraction < 0.2,
                  "ransacThresholdFraction must be in (0, 0.2), got \(ransacThresholdFraction)")
        try check(ransacScaleRange.lowerBound > 0, "ransacScaleRange must be positive, got \(ransacScaleRange)")
        try check(acceptScore >= 1, "acceptScore must be at least 1, got \(acceptScore)")
        try check(printShortlistSize >= 0, "printShortlistSize must be at least 0, got \(printShortlistSize)")
    }
}

/// Errors of GlimpseVision: bad settings and unusable feature cache files.
public enum VisionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A ``VisionConfiguration`` field is out of range.
    case invalidConfiguration(String)
    /// A reference photo could not be examined, read or decoded.
    case referencePhoto(path: String, reason: String)
    /// The feature cache file could not be read or written.
    case cacheIO(path: String, reason: String)
    /// The feature cache file is not a Glimpse feature cache, or is damaged.
    case cacheCorrupt(path: String, reason: String)
    /// The feature cache file was written for other photos or another configuration.
    case cacheStale(path: String, reason: String)
    /// The saved matcher index was missing its parts, damaged, stale, or could not be written.
    case matcherIndex(MatcherIndexError)

    /// A sentence that says what happened and what to do.
    public var description: String {
        switch self {
        case .invalidConfiguration(let message):
            "invalid vision configuration: \(message)"
        case let .referencePhoto(path, reason):
            "reference photo \(path): \(reason); check that the catalog points at a readable PNG or JPEG"
        case let .cacheIO(path, reason):
            "feature cache \(path): \(reason); check the path and its permissions"
        case let .cacheCorrupt(path, reason):
            "feature cache \(path) is unusable (\(reason)); delete it and it will be rebuilt"
        case let .cacheStale(path, reason):
            "feature cache \(path) is out of date (\(reason)); it will be rebuilt from the photos"
        case let .matcherIndex(error):
            "matcher index not used: \(error)"
        }
    }
}

public import GlimpseImage

extension VisionConfiguration {
    /// How a query picture is best decoded for this configuration: no larger than the matcher looks at
    /// (``queryMaxLongSide``), orientation applied. Decoding larger only adds work: the matcher would
    /// resample the picture down to that size anyway, and labels are computed on a still smaller copy.
    /// A JPEG may come out up to 5 % smaller when a DCT scale lands there (a 4032-pixel phone photo
    /// at 1/8 gives 504 pixels), which saves resampling.
    public var queryDecoding: DecodingOptions {
        DecodingOptions(maxDimension: queryMaxLongSide, maxDimensionSlack: Self.queryDecodingSlack)
    }

    /// The share below ``queryMaxLongSide`` that ``queryDecoding`` accepts for a JPEG.
    public static let queryDecodingSlack = 0.05
}

extension VisionConfiguration {
    /// The shortlist index `lsh` over `words` with the crowded buckets this configuration reads from
    /// contiguous copies (``lshContiguousBucketLine``) copied.
    func withCrowdedBucketsCopied(_ lsh: LSHIndex, words: [UInt64]) -> LSHIndex {
        lsh.copyingCrowdedBuckets(
            of: words, over: lshContiguousBucketLine, upTo: lshBucketCap > 0 ? lshBucketCap : Int.max)
    }
}
