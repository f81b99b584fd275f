import GlimpseFiles
import GlimpseIndex

/// A matcher index file's sections as read, before they are checked to fit together: what
/// ``MatcherIndexLoader`` hands to ``matcher(path:configuration:printer:nullPrints:keypointSlots:)``.
struct LoadedMatcherIndex {
    let meta: [UInt64]
    let slotFileID: [UInt8]
    let groupIDBytes: [UInt8]
    let groupIDEnds: [UInt32]
    let keyBytes: [UInt8]
    let keyEnds: [UInt32]
    let groups: [Int32]
    let longSides: [Double]
    let sizes: [Int32]
    let descriptorStarts: [UInt64]
    let words: [UInt64]
    let points: [Float]
    let owners: [UInt32]
    let lshPositions: [Int32]
    let lshStarts: [UInt32]
    let lshEntries: [UInt32]
    let lshDescriptors: [UInt32]
    let prints: [Float]
    let printOwners: [Int32]
    let slotOf: [Int32]
    let printCentroids: [Float]
    let printCentre: [Float]
    let printLevels: [Float]
    let printListStarts: [UInt64]
    let printEntries: [UInt32]
    let printCodes: [UInt64]
    let printScales: [Float]

    /// A field of the meta section.
    func meta(_ field: MatcherIndexFile.Meta) -> UInt64 { field.rawValue < meta.count ? meta[field.rawValue] : 0 }

    /// The matcher these parts make, once every value is checked to be in range: a query on it never
    /// reads outside its arrays, whatever the file held.
    func matcher(
        path: String, configuration: VisionConfiguration, printer: (any FeaturePrinting)?, nullPrints: NullPrints?,
        keypointSlots: String?
    ) throws(MatcherIndexError) -> VisualMatcher {
        func check(_ condition: Bool, _ reason: @autoclosure () -> String) throws(MatcherIndexError) {
            if !condition { throw .malformed(path: path, reason: reason()) }
        }
        try check(meta.count == MatcherIndexFile.Meta.allCases.count, "the meta section has \(meta.count) fields")
        let n = Int(clamping: meta(.referenceCount))
        let printDimension = Int(clamping: meta(.printDimension))
        try check(printDimension == (printer?.featurePrintDimension ?? 0) || printDimension == 0 && printer == nil,
                  "prints of \(printDimension) values for a printer of \(printer?.featurePrintDimension ?? 0)")
        let groupIDs = try Self.strings(groupIDBytes, groupIDEnds, path: path, what: "place ids")
        let keys = try Self.strings(keyBytes, keyEnds, path: path, what: "reference keys")
        try check(groupIDs.count == Int(clamping: meta(.groupCount)) && keys.count == n, "the counts of places and references disagree")
        var groupIndex: [String: Int] = [:]
        groupIndex.reserveCapacity(groupIDs.count)
        for (g, id) in groupIDs.enumerated() {
            try check(groupIndex.updateValue(g, forKey: id) == nil, "the place id \(id) appears twice")
        }
        var keyIndex: [String: Int] = [:]
        keyIndex.reserveCapacity(n)
        for (r, key) in keys.enumerated() {
            try check(keyIndex.updateValue(r, forKey: key) == nil, "the reference key \(key) appears twice")
        }
        try check(groups.count == n && groups.allSatisfy { $0 >= 0 && Int($0) < groupIDs.count }, "a reference's place is out of range")
        try check(longSides.count == n && sizes.count == 2 * n, "the references' sizes do not match their count")
        // Floats are checked as integers are: a NaN position or print (with checksums recomputed) would
        // otherwise load, and compare equal to nothing or score everything alike.
        try check(longSides.allSatisfy { $0.isFinite && $0 >= 0 } && sizes.allSatisfy { $0 >= 0 },
                  "a reference's size is negative or not a finite number")
        try check(points.allSatisfy(\.isFinite), "a keypoint position is not a finite number (NaN or infinite)")
        try check(prints.allSatisfy(\.isFinite), "a feature print value is not a finite number (NaN or infinite)")
        // Descriptor ranges ascend from 0 to the descriptor count, and each descriptor's owner is its range's.
        let descriptors = owners.count
        try check(descriptorStarts.count == n + 1 && descriptorStarts.first == 0
                  && descriptorStarts.last == UInt64(descriptors), "the descriptor ranges do not cover the descriptors")
        try check(words.count == 4 * descriptors && points.count == 2 * descriptors, "descriptors and positions disagree")
        for r in 0..<n {
            let lo = descriptorStarts[r], hi = descriptorStarts[r + 1]
            try check(lo <= hi && hi <= UInt64(descriptors), "reference \(r)'s descriptor range is out of order")
            for d in Int(lo)..<Int(hi) where owners[d] != UInt32(r) {
                throw .malformed(path: path, reason: "descriptor \(d) is not reference \(r)'s")
            }
        }
        let lsh = try lshIndex(path: path, descriptors: descriptors)
        let subset: [UInt32]? = meta(.indexesSubset) == 0 ? nil : lshDescriptors
        var lshWords = words
        if let subset {
            try check(subset.count == lsh.count, "the indexed descriptors do not match the index")
            var previous = -1
            for d in subset {
                try check(Int(d) > previous && Int(d) < descriptors, "the indexed descriptors are not ascending in range")
                previous = Int(d)
            }
            lshWords = []
            lshWords.reserveCapacity(4 * subset.count)
            for d in subset { lshWords.append(contentsOf: words[(4 * Int(d))..<(4 * Int(d) + 4)]) }
        } else {
            try check(lshDescriptors.isEmpty && lsh.count == descriptors, "the index does not cover every descriptor")
        }
        let codes = try self.codes(path: path, printDimension: printDimension)
        try check(printDimension == 0 ? prints.isEmpty && printOwners.isEmpty
                  : (codes == nil ? prints.count == printOwners.count * printDimension
                     : prints.isEmpty && codes?.count == printOwners.count),
                  "the prints do not match their owners")
        try check(printOwners.allSatisfy { $0 >= 0 && Int($0) < n }, "a print's reference is out of range")
        try check(zip(printOwners, printOwners.dropFirst()).allSatisfy { $0 <= $1 }, "the prints' references do not ascend")
        let slots = try openSlots(path: path, keypointSlots: keypointSlots, count: n, configuration: configuration)
        let segment = ReferenceSegment(
            groups: groups, keys: keys, longSides: longSides, sizes: sizes,
            descriptorStarts: descriptorStarts.map { Int($0) }, words: words, points: points, owners: owners,
            lsh: configuration.withCrowdedBucketsCopied(lsh, words: lshWords), lshWords: lshWords,
            lshDescriptors: subset, prints: prints, printOwners: printOwners, printCodes: codes,
            keypointSlots: slots, slotOf: slots == nil ? [] : slotOf)
        var calibration: PrintCalibrationState?
        try check(meta(.calibrated) != 1 || Double(bitPattern: meta(.calibrationThreshold)).isFinite
                  && Double(bitPattern: meta(.calibrationRate)).isFinite, "the print calibration is not a finite number")
        if meta(.calibrated) == 1, nullPrints != nil, meta(.nullPrintsDigest) == MatcherIndexFile.digest(of: nullPrints) {
            calibration = PrintCalibrationState(PrintCalibration(
                threshold: Double(bitPattern: meta(.calibrationThreshold)),
                falseMatchRate: Double(bitPattern: meta(.calibrationRate)),
                nullCount: Int(clamping: meta(.calibrationNulls)), nullsOverLine: Int(clamping: meta(.calibrationNullsOverLine)),
                places: Int(clamping: meta(.calibrationPlaces))))
        }
        let matcher = VisualMatcher(
            configuration: configuration, printer: printer, printDimension: printDimension, segments: [segment],
            live: Array(repeating: true, count: n), groupIDs: LayeredNames(groupIDs), groupIndex: LayeredIndex(groupIndex),
            keyIndex: LayeredIndex(keyIndex),
            nullPrints: nullPrints, calibration: calibration)
        // The saved line serves at once; the copies left out of the nulls and the look-alike lines, which
        // the file does not keep, are measured in the background as after an edit.
        if calibration != nil { matcher.recalibrateInBackground() }
        return matcher
    }

    /// The print codes, when the file holds any, after their lists, entries and codes are checked: the
    /// model of whole centroid rows with a centre of the prints' dimension and two levels per component, list starts
    /// ascending over the entries, entries naming every row once, no code bit past the dimension.
    private func codes(path: String, printDimension d: Int) throws(MatcherIndexError) -> PrintCodes? {
        guard !printCentre.isEmpty || !printCentroids.isEmpty || !printListStarts.isEmpty || !printScales.isEmpty else {
            guard printLevels.isEmpty, printEntries.isEmpty, printCodes.isEmpty else {
                throw .malformed(path: path, reason: "print codes without their model")
            }
            return nil
        }
        let failure = MatcherIndexError.malformed(path: path, reason: "the print codes are out of range")
        guard d > 0, printCentre.count == d, printLevels.count == 2 * d, !printCentroids.isEmpty,
              printCentroids.count % d == 0, printCentroids.allSatisfy(\.isFinite), printCentre.allSatisfy(\.isFinite),
              printLevels.allSatisfy(\.isFinite), printScales.allSatisfy(\.isFinite)
        else { throw failure }
        let clusters = printCentroids.count / d, n = printEntries.count, words = SignCodes.words(dimension: d)
        guard printListStarts.count == clusters + 1, printListStarts.first == 0, printListStarts.last == UInt64(n),
              zip(printListStarts, printListStarts.dropFirst()).allSatisfy({ $0 <= $1 }),
              printScales.count == n, printCodes.count == n * words, PrintCodes.isPermutation(printEntries, count: n)
        else { throw failure }
        if d % 64 != 0 {
            let unused = UInt64.max << UInt64(d % 64)
            for entry in 0..<n where printCodes[entry * words + words - 1] & unused != 0 { throw failure }
        }
        let model = BinaryIVFModel(dimension: d, centroids: printCentroids, centre: printCentre)
        let index = BinaryIVFIndex(model: model, listStarts: printListStarts.map { Int($0) }, entryIDs: printEntries, codes: printCodes)
        return PrintCodes(index: index, levels: printLevels, scales: printScales)
    }

    /// The shortlist index, after its tables are checked: key positions within a descriptor, bucket offsets
    /// ascending within each table, entries naming indexed descriptors.
    private func lshIndex(path: String, descriptors: Int) throws(MatcherIndexError) -> LSHIndex {
        let tables = Int(clamping: meta(.lshTables)), bits = Int(clamping: meta(.lshBits)), count = Int(clamping: meta(.lshCount))
        guard (1...64).contains(tables), (1...24).contains(bits), count <= descriptors,
              lshPositions.count == tables * bits, lshPositions.allSatisfy({ (0..<256).contains($0) }),
              lshStarts.count == tables * ((1 << bits) + 1), lshEntries.count == tables * count,
              lshEntries.allSatisfy({ Int($0) < count })
        else { throw .malformed(path: path, reason: "the shortlist index's tables are out of range") }
        let buckets = 1 << bits
        for t in 0..<tables {
            let base = t * (buckets + 1)
            guard lshStarts[base] == 0, lshStarts[base + buckets] == UInt32(count) else {
                throw .malformed(path: path, reason: "table \(t)'s buckets do not cover its entries")
            }
            for b in 0..<buckets where lshStarts[base + b] > lshStarts[base + b + 1] {
                throw .malformed(path: path, reason: "table \(t)'s bucket offsets descend")
            }
        }
        return LSHIndex(tableCount: tables, bits: bits, positions: lshPositions, starts: lshStarts, entries: lshEntries, count: count)
    }

    /// The keypoint slot file at `keypointSlots`, when the index verifies references from one: it must be the
    /// file the index was built with (its identity and slot count) and every slot number within it.
    private func openSlots(
        path: String, keypointSlots: String?, count n: Int, configuration: VisionConfiguration
    ) throws(MatcherIndexError) -> KeypointSlots? {
        guard !slotFileID.isEmpty else {
            guard slotOf.isEmpty else { throw .malformed(path: path, reason: "slots without a slot file") }
            return nil
        }
        guard let keypointSlots else {
            throw .keypointSlots(path: path, reason: "the index verifies from a keypoint file, and none was named")
        }
        let committed = Int(clamping: meta(.slotCount))
        guard slotOf.count == n, slotOf.allSatisfy({ $0 >= -1 && Int($0) < committed }) else {
            throw .malformed(path: path, reason: "a reference's slot is out of range")
        }
        let slots: KeypointSlots
        do throws(SlotFileError) {
            slots = try KeypointSlots.open(
                path: keypointSlots, maxKeypoints: Int(clamping: meta(.slotMaxKeypoints)),
                indexedKeypoints: Int(clamping: meta(.slotIndexedKeypoints)), configuration: configuration)
        } catch {
            throw .keypointSlots(path: path, reason: error.description)
        }
        guard slots.file.fileID == slotFileID, slots.file.committedCount == committed else {
            throw .keypointSlots(path: path, reason: "\(keypointSlots) is not the keypoint file the index was built with")
        }
        return slots
    }

    /// The strings stored as UTF-8 bytes and where each ends.
    private static func strings(_ bytes: [UInt8], _ ends: [UInt32], path: String, what: String) throws(MatcherIndexError) -> [String] {
        var strings: [String] = []
        strings.reserveCapacity(ends.count)
        var start = 0
        for end in ends {
            guard Int(end) >= start, Int(end) <= bytes.count else {
                throw .malformed(path: path, reason: "the \(what) are out of range")
            }
            strings.append(String(decoding: bytes[start..<Int(end)], as: UTF8.self))
            start = Int(end)
        }
        guard start == bytes.count else { throw .malformed(path: path, reason: "the \(what) are out of range") }
        return strings
    }
}
