/// Builds a ``VisualMatcher`` from references added a batch at a time, so that a catalog whose references'
/// features do not fit in memory at once (10⁵–10⁶ photos, with their keypoints written to a
/// ``KeypointSlots`` file as they come) is built while only what the matcher keeps is held for all of them.
///
/// ``VisualMatcher/init(keyedReferences:configuration:printer:nullPrints:keypointSlots:)`` is this with one
/// batch: references that share an id form one group, and a later duplicate key is ignored.
public struct VisualMatcherBuilder {
    /// The settings the matcher and its references use.
    public let configuration: VisionConfiguration
    private let printer: (any FeaturePrinting)?
    private let nullPrints: NullPrints?
    private var groupIDs: [String] = []
    private var groupIndex: [String: Int] = [:]
    private var keyIndex: [String: Int] = [:]
    private var segment: ReferenceSegmentBuilder

    /// The number of references added so far.
    public var count: Int { segment.count }

    /// A builder of a matcher with the given settings, printer and null prints (see
    /// ``VisualMatcher/init(keyedReferences:configuration:printer:nullPrints:keypointSlots:)``).
    public init(
        configuration: VisionConfiguration = .default, printer: (any FeaturePrinting)? = nil,
        nullPrints: NullPrints? = nil, keypointSlots: KeypointSlots? = nil
    ) {
        self.configuration = configuration
        self.printer = printer
        self.nullPrints = nullPrints
        segment = ReferenceSegmentBuilder(
            printDimension: printer?.featurePrintDimension ?? 0, configuration: configuration, keypointSlots: keypointSlots)
    }

    /// Makes room for `references` more references, so that a build of a known size never grows its arrays
    /// by copying (with keypoint slots and ``VisionConfiguration/indexedKeypointLimit``, where each keeps a
    /// known number of keypoints in memory; otherwise it does nothing).
    public mutating func reserveCapacity(references: Int) {
        segment.reserveCapacity(references: references)
        keyIndex.reserveCapacity(count + references)
    }

    /// Adds `references` after those added so far; a reference whose key was added before is ignored. With
    /// keypoint slots, their keypoints are written now, and the batch need not be kept.
    public mutating func add(_ references: [MatcherReference]) {
        var taken: [SegmentReference] = []
        taken.reserveCapacity(references.count)
        for reference in references where keyIndex[reference.key] == nil {
            let group: Int
            if let known = groupIndex[reference.id] { group = known } else {
                group = groupIDs.count
                groupIndex[reference.id] = group
                groupIDs.append(reference.id)
            }
            keyIndex[reference.key] = segment.count + taken.count
            taken.append(SegmentReference(group: Int32(group), key: reference.key, features: reference.features))
        }
        segment.add(taken)
    }

    /// The matcher over every reference added (its shortlist index built now, its print-alone line measured
    /// from the null prints).
    public consuming func build() -> VisualMatcher {
        let (segment, groupIDs, groupIndex, keyIndex) = (segment, groupIDs, groupIndex, keyIndex)
        let count = segment.count
        return VisualMatcher(
            configuration: configuration, printer: printer, printDimension: segment.printDimension,
            segments: [segment.build()], live: Array(repeating: true, count: count), groupIDs: LayeredNames(groupIDs),
            groupIndex: LayeredIndex(groupIndex), keyIndex: LayeredIndex(keyIndex), nullPrints: nullPrints, calibration: nil)
    }
}
