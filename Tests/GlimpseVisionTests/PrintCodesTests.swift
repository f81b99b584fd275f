import Foundation
import GlimpseBasics
import GlimpseFeaturePrint
import GlimpseFiles
import GlimpseImage
import GlimpseIndex
import GlimpseTestSupport
import Testing
@testable import GlimpseVision

/// A printer of `dimension`-value prints that gives each query picture the print registered for its width.
struct WidePrinter: FeaturePrinting {
    let prints: [Int: FeaturePrint]
    let dimension: Int
    var featurePrintIdentity: String { "wide-stub-\(dimension)" }
    var featurePrintDimension: Int { dimension }

    func featurePrint(of image: PixelBuffer) throws -> FeaturePrint {
        guard let print = prints[image.width] else { throw CancellationError() }
        return print
    }

    func referencePrints(of image: PixelBuffer) throws -> [FeaturePrint] { [try featurePrint(of: image)] }
}

/// Prints shaped like the network's: non-negative and sparse, a shared part plus one of `themes`
/// directions plus noise, so that some prints lie near each other and most do not.
struct PrintSource {
    let dimension: Int
    let themes: [[Float]]
    var generator: SeededGenerator

    init(dimension: Int, themes count: Int, seed: UInt64) {
        self.dimension = dimension
        generator = SeededGenerator(seed: seed)
        var made: [[Float]] = []
        for _ in 0..<count {
            var theme = [Float](repeating: 0, count: dimension)
            for j in 0..<dimension { theme[j] = generator.nextGaussianPair().0 }
            made.append(theme)
        }
        themes = made
    }

    /// A print of theme `t` (`t % themes`), `spread` the weight of its own noise.
    mutating func print(theme t: Int, spread: Float = 0.6) -> FeaturePrint {
        var values = [Float](repeating: 0, count: dimension)
        let theme = themes[t % themes.count]
        for j in 0..<dimension {
            let shared: Float = j % 3 == 0 ? 0.8 : 0
            values[j] = max(0, shared + theme[j] + spread * generator.nextGaussianPair().0)
        }
        return FeaturePrint(normalizing: values)
    }

    /// `base` moved by noise of weight `amount` (a second photo of the same thing).
    mutating func near(_ base: FeaturePrint, amount: Float) -> FeaturePrint {
        FeaturePrint(normalizing: base.values.map { max(0, $0 + amount * generator.nextGaussianPair().0 / Float(dimension).squareRoot()) })
    }
}

/// `PrintCodes`: feature prints kept as one-bit codes of rotated views, searched through an inverted file,
/// and the matcher that compares a query's print with them past `printCodeLine` views.
@Suite struct PrintCodesTests {
    @Test func theRotationKeepsEveryDotProduct() {
        var generator = SeededGenerator(seed: 7)
        for dimension in [1280, 48, 7] {
            let rotation = PrintRotation(dimension: dimension)
            #expect(dimension % rotation.blockSize == 0 && rotation.blockSize <= 256)
            let a = (0..<dimension).map { _ in generator.nextGaussianPair().0 }
            let b = (0..<dimension).map { _ in generator.nextGaussianPair().0 }
            let (ra, rb) = (a.withUnsafeBufferPointer { rotation.rotated($0) }, b.withUnsafeBufferPointer { rotation.rotated($0) })
            let dot = { (x: [Float], y: [Float]) in zip(x, y).reduce(Float(0)) { $0 + $1.0 * $1.1 } }
            #expect(abs(dot(ra, rb) - dot(a, b)) < 1e-3 * Float(dimension).squareRoot())
            #expect(abs(dot(ra, ra) - dot(a, a)) < 1e-3 * dot(a, a))
            // Rows rotated together, on several threads, come out as one at a time.
            let rows = rotation.rotated(rows: a + b, threads: 2)
            #expect(Array(rows[0..<dimension]) == ra && Array(rows[dimension...]) == rb)
            // Turned back, a rotated vector is itself again.
            let back = rotation.unrotated(ra)
            #expect(zip(back, a).allSatisfy { abs($0 - $1) < 1e-4 * max(1, abs($1)) })
        }
    }

    /// 1,200 reference prints of 30 themes at 512 values, coded; queries are second photos of 24 of them.
    static func coded() -> (prints: [FeaturePrint], codes: PrintCodes, queries: [(FeaturePrint, Int)]) {
        var source = PrintSource(dimension: 512, themes: 30, seed: 11)
        let prints = (0..<1_200).map { source.print(theme: $0) }
        let rows = prints.flatMap(\.values)
        let (model, levels) = PrintCodes.train(sample: rows, dimension: 512, views: prints.count, seed: 3, threads: 2)
        var builder = PrintCodesBuilder(model: model, levels: levels)
        builder.add(views: Array(rows[..<(500 * 512)]), threads: 2)
        builder.add(views: Array(rows[(500 * 512)...]), threads: 1)
        let queries = stride(from: 0, to: 1_200, by: 50).map { (source.near(prints[$0], amount: 0.5), $0) }
        return (prints, builder.finish(), queries)
    }

    @Test func estimatesFollowTheExactSimilarities() throws {
        let (prints, codes, queries) = Self.coded()
        #expect(codes.count == 1_200 && codes.index.model.clusters == 1 && codes.memoryBytes < 1_200 * 100)
        var errors: [Float] = []
        var firstAgrees = 0
        for (query, source) in queries {
            let prepared = codes.prepare(query.values)
            let exact = prints.map { query.dot($0) }
            let estimated = (0..<prints.count).map { codes.estimate(prepared, row: $0) }
            errors += zip(estimated, exact).map { $0 - $1 }
            let best = estimated.indices.max { estimated[$0] < estimated[$1] } ?? -1
            if best == source { firstAgrees += 1 }
            // The inverted file's shortlist holds the row the estimates rank first.
            let found = codes.nearestRows(prepared, search: .init(probe: 1, shortlist: 256))
            #expect(found.contains { $0.row == best && $0.similarity == estimated[best] })
        }
        let meanAbs = errors.map(abs).reduce(0, +) / Float(errors.count)
        let bias = errors.reduce(0, +) / Float(errors.count)
        #expect(meanAbs < 0.02, "mean absolute error \(meanAbs)")
        #expect(abs(bias) < 0.01, "bias \(bias)")
        #expect(firstAgrees == queries.count, "\(firstAgrees) of \(queries.count) find their own print first")
    }

    /// 60 places of 256-value prints, with 400 null prints of other themes.
    static func places(line: Int) -> (matcher: VisualMatcher, probes: [Int: FeaturePrint], expected: [Int: String?]) {
        var source = PrintSource(dimension: 256, themes: 90, seed: 5)
        let prints = (0..<60).map { source.print(theme: $0, spread: 0.3) }
        var values: [Float] = []
        for k in 0..<400 { values += source.print(theme: 60 + k % 30, spread: 0.3).values }
        let nulls = NullPrints(identity: "wide-stub-256", source: "constructed", dimension: 256, values: values)
        var probes: [Int: FeaturePrint] = [:], expected: [Int: String?] = [:]
        for p in 0..<60 {
            probes[200 + p] = source.near(prints[p], amount: 0.4)
            expected[200 + p] = "place-\(p)"
            probes[300 + p] = source.print(theme: 60 + p % 30, spread: 0.3)
            expected[300 + p] = .some(nil)
        }
        var configuration = VisionConfiguration.default
        configuration.printCodeLine = line
        let matcher = VisualMatcher(
            keyedReferences: prints.enumerated().map { place("place-\($0.offset)", $0.element) }, configuration: configuration,
            printer: WidePrinter(prints: probes, dimension: 256), nullPrints: nulls)
        return (matcher, probes, expected)
    }

    @Test func aMatcherPastTheLineAnswersAsOneWithFloats() throws {
        let floats = Self.places(line: 4_096), coded = Self.places(line: 1)
        #expect(floats.matcher.segments.first?.printCodes == nil && floats.matcher.segments.first?.prints.isEmpty == false)
        let codes = try #require(coded.matcher.segments.first?.printCodes)
        #expect(codes.count == 60 && coded.matcher.segments.first?.prints.isEmpty == true)
        #expect(coded.matcher.memoryBytes < floats.matcher.memoryBytes)
        let (a, b) = (try #require(floats.matcher.printCalibration), try #require(coded.matcher.printCalibration))
        #expect(abs(a.threshold - b.threshold) < 0.25 && a.nullCount == b.nullCount)
        var agree = 0, right = 0
        for width in floats.probes.keys.sorted() {
            let (x, y) = (floats.matcher.match(try flatPicture(width: width)), coded.matcher.match(try flatPicture(width: width)))
            if x.accepted?.referenceID == y.accepted?.referenceID { agree += 1 }
            if y.accepted?.referenceID == coded.expected[width] ?? nil { right += 1 }
            if let s = x.candidates.first?.similarity, let t = y.candidates.first(where: { $0.referenceID == x.candidates.first?.referenceID })?.similarity {
                #expect(abs(s - t) < 0.08, "probe \(width): \(s) against \(t)")
            }
        }
        #expect(agree >= 116, "\(agree) of 120 decided alike")
        #expect(right >= 110, "\(right) of 120 right with codes")
    }

    /// Where the print and the keypoint votes meet: with codes, a group the print ranks too far down for its own
    /// shortlist is named when it has votes (the first pass's, or the mirror probe's for the mirrored pass);
    /// without votes, or with floats, the print's nearest alone.
    @Test func votedGroupsAmongThePrintsNearestAreNamedAfterThem() throws {
        for line in [1, 4_096] {
            let matcher = Self.places(line: line).matcher
            var source = PrintSource(dimension: 256, themes: 90, seed: 5)
            let query = source.near(source.print(theme: 3, spread: 0.3), amount: 0.4)
            let comparison = matcher.groupComparison(of: query.values)
            let ranked = comparison.top(matcher.configuration.printVoteDepth)
            #expect(ranked.count >= 12)
            let count = matcher.configuration.mirrorShortlistSize
            let nearest = matcher.nearestByPrint(comparison, excluding: [], count: count)
            #expect(nearest == ranked.prefix(count).map { comparison.reference(ofGroup: $0) })
            // Votes for the 11th and 12th groups by print (more for the 12th), none for the first ones.
            var votes = [Int32](repeating: 0, count: matcher.slotCount)
            let (eleventh, twelfth) = (comparison.reference(ofGroup: ranked[10]), comparison.reference(ofGroup: ranked[11]))
            votes[eleventh] = 2
            votes[twelfth] = 5
            let met = matcher.nearestByPrint(comparison, excluding: [], count: count, votes: votes)
            if line == 1 {
                #expect(met == nearest + [twelfth, eleventh], "line \(line)")
            } else {
                #expect(met == nearest, "floats: the print's nearest alone")
            }
            #expect(matcher.nearestByPrint(comparison, excluding: [], count: count, votes: []) == nearest)
        }
    }

    /// Past the line (a large catalog) the print comes before the rest of the keypoint shortlist: a picture
    /// whose print decides it leaves the shortlisted references past the first unverified. Below it the
    /// whole shortlist is verified before the print, as it always was. The answer is the same.
    @Test func pastTheLineThePrintComesBeforeTheRestOfTheKeypointShortlist() throws {
        let picture = try Fixtures.decode(Fixtures.photos[7])
        let own = FeatureExtractor.extract(from: picture)
        #expect(own.count >= 400)
        var source = PrintSource(dimension: 256, themes: 90, seed: 5)
        let prints = (0..<60).map { source.print(theme: $0, spread: 0.3) }
        var values: [Float] = []
        for k in 0..<400 { values += source.print(theme: 60 + k % 30, spread: 0.3).values }
        let nulls = NullPrints(identity: "wide-stub-256", source: "constructed", dimension: 256, values: values)
        // Eight decoys share the picture's descriptors, one in eight each, at one another's positions: they
        // draw its keypoint votes and fill its shortlist, but no geometry of theirs agrees with it.
        var generator = SeededGenerator(seed: 21)
        let decoys = (0..<8).map { d -> MatcherReference in
            let picked = Array(stride(from: d, to: own.count, by: 8))
            var keypoints = picked.map { own.keypoints[$0] }
            keypoints.shuffle(using: &generator)
            let words = picked.flatMap { own.descriptorWords[(4 * $0)..<(4 * $0 + 4)] }
            let features = ImageFeatures(width: own.width, height: own.height, keypoints: keypoints,
                                         descriptorWords: words, featurePrints: [source.print(theme: 40 + d, spread: 0.3)])
            return MatcherReference(id: "decoy-\(d)", key: "decoy-\(d)", features: features)
        }
        let printer = WidePrinter(prints: [picture.width: source.near(prints[3], amount: 0.4)], dimension: 256)
        var verifiedDecoys: [Int: Int] = [:]
        for line in [1, 4_096] {
            var configuration = VisionConfiguration.default
            configuration.printCodeLine = line
            let matcher = VisualMatcher(
                keyedReferences: prints.enumerated().map { place("place-\($0.offset)", $0.element) } + decoys,
                configuration: configuration, printer: printer, nullPrints: nulls)
            #expect((matcher.segments.first?.printCodes != nil) == (line == 1))
            #expect(matcher.shortlist(own).count == 8, "line \(line): every decoy is shortlisted")
            let report = matcher.match(picture, limit: 80)
            #expect(report.accepted?.referenceID == "place-3", "line \(line)")
            let decoyCandidates = report.candidates.filter { $0.referenceID.hasPrefix("decoy-") }
            #expect(decoyCandidates.allSatisfy { $0.score < Double(configuration.decisiveScore) })
            verifiedDecoys[line] = decoyCandidates.filter(\.verified).count
        }
        #expect(verifiedDecoys[4_096] == 8, "below the line the whole shortlist is verified: \(verifiedDecoys)")
        #expect((verifiedDecoys[1] ?? 8) < 8, "past the line the print decides first: \(verifiedDecoys)")
    }

    /// Past the line, of the groups nearest by print, the references whose in-memory keypoints agree most with
    /// the picture's are named for verification, whatever their print rank and votes: the picture's own keypoints
    /// first, a stranger's after, keypoint-less places never. Below the line, with the depth 0, or once the
    /// picture's own is verified, it is not named; nor outside the compact regime, where memory holds every
    /// descriptor.
    @Test func pastTheLineThePrintsNearestAreRankedByKeypointAgreement() throws {
        let own = FeatureExtractor.extract(from: try Fixtures.decode(Fixtures.photos[7]))
        let other = FeatureExtractor.extract(from: try Fixtures.decode(Fixtures.photos[2]))
        #expect(own.count >= 400 && other.count >= 400)
        var source = PrintSource(dimension: 256, themes: 90, seed: 5)
        let prints = (0..<60).map { source.print(theme: $0, spread: 0.3) }
        func holding(_ id: String, _ features: ImageFeatures, theme: Int) -> MatcherReference {
            MatcherReference(id: id, key: id, features: ImageFeatures(
                width: features.width, height: features.height, keypoints: features.keypoints,
                descriptorWords: features.descriptorWords, featurePrints: [source.print(theme: theme, spread: 0.3)]))
        }
        let references = prints.enumerated().map { place("place-\($0.offset)", $0.element) }
            + [holding("mine", own, theme: 20), holding("stranger", other, theme: 21)]
        let query = source.near(prints[3], amount: 0.4).values
        for (line, depth, compact) in [(1, 64, true), (4_096, 64, true), (1, 0, true), (1, 64, false)] {
            var configuration = VisionConfiguration.default
            configuration.printCodeLine = line
            configuration.printAgreementDepth = depth
            configuration.indexedKeypointLimit = compact ? 128 : nil
            let matcher = VisualMatcher(
                keyedReferences: references, configuration: configuration, printer: WidePrinter(prints: [:], dimension: 256))
            let comparison = matcher.groupComparison(of: query)
            let named = matcher.agreedByPrint(comparison, features: own, excluding: []).map(matcher.groupID(of:))
            guard line == 1, depth > 0, compact else {
                #expect(named.isEmpty, "line \(line), depth \(depth), compact \(compact): \(named)")
                continue
            }
            #expect(named.first == "mine", "\(named)")
            #expect(named.count <= configuration.printShortlistSize && !named.contains { $0.hasPrefix("place-") })
            let mine = try #require(matcher.agreedByPrint(comparison, features: own, excluding: []).first)
            #expect(matcher.agreement(own, reference: mine) >= own.count * 9 / 10)
            let verifiedMine = MatchCandidate(referenceID: "mine", votes: 0, verified: true, inliers: 40, score: 40, mirrored: false)
            #expect(!matcher.agreedByPrint(comparison, features: own, excluding: [verifiedMine])
                .map(matcher.groupID(of:)).contains("mine"))
        }
    }

    /// The crowding of a very large catalog in small: decoys hold exact copies of the picture's descriptors, so
    /// every vote goes to them and none to the picture's own reference, whose descriptors lie a few bits away;
    /// the print names no place. Past the line, in the compact regime, the print's nearest ranked by keypoint
    /// agreement bring the picture's own to verification, and it is accepted; with the depth 0 it is not found.
    @Test func aPlaceTheVotesMissIsFoundByKeypointAgreementAmongThePrintsNearest() throws {
        let picture = try Fixtures.decode(Fixtures.photos[7])
        let own = FeatureExtractor.extract(from: picture)
        var source = PrintSource(dimension: 256, themes: 90, seed: 5)
        let prints = (0..<60).map { source.print(theme: $0, spread: 0.3) }
        var generator = SeededGenerator(seed: 33)
        let decoys = (0..<8).map { d -> MatcherReference in
            let picked = Array(stride(from: d, to: own.count, by: 8))
            var keypoints = picked.map { own.keypoints[$0] }
            keypoints.shuffle(using: &generator)
            let features = ImageFeatures(
                width: own.width, height: own.height, keypoints: keypoints,
                descriptorWords: picked.flatMap { own.descriptorWords[(4 * $0)..<(4 * $0 + 4)] },
                featurePrints: [source.print(theme: 40 + d, spread: 0.3)])
            return MatcherReference(id: "decoy-\(d)", key: "decoy-\(d)", features: features)
        }
        // The picture's own keypoints, each descriptor 6 bits away from the picture's.
        var words = own.descriptorWords
        for i in 0..<own.count {
            for _ in 0..<6 {
                let bit = Int(generator.next() % 256)
                words[4 * i + bit / 64] ^= 1 << UInt64(bit % 64)
            }
        }
        let mine = MatcherReference(id: "mine", key: "mine", features: ImageFeatures(
            width: own.width, height: own.height, keypoints: own.keypoints, descriptorWords: words,
            featurePrints: [source.print(theme: 20, spread: 0.3)]))
        let printer = WidePrinter(prints: [picture.width: source.print(theme: 75, spread: 0.3)], dimension: 256)
        for depth in [100, 0] {
            var configuration = VisionConfiguration.default
            configuration.printCodeLine = 1
            configuration.indexedKeypointLimit = 1_000
            configuration.printAgreementDepth = depth
            let matcher = VisualMatcher(
                keyedReferences: prints.enumerated().map { place("place-\($0.offset)", $0.element) } + decoys + [mine],
                configuration: configuration, printer: printer)
            let shortlisted = matcher.shortlist(own).map { matcher.groupID(of: $0.reference) }
            #expect(!shortlisted.contains("mine") && shortlisted.count == 8, "the votes go to the decoys: \(shortlisted)")
            let report = matcher.match(picture, limit: 80)
            if depth > 0 {
                #expect(report.accepted?.referenceID == "mine", "\(report.candidates.prefix(4).map { ($0.referenceID, $0.score) })")
            } else {
                let found = report.candidates.filter { $0.referenceID == "mine" && $0.score >= Double(configuration.acceptScore) }
                #expect(report.accepted == nil && found.isEmpty, "\(report.candidates.prefix(4).map { ($0.referenceID, $0.score, $0.mirrored) })")
            }
        }
    }

    @Test func editsOfACodedMatcherAreSeenAndSurviveCompaction() throws {
        let coded = Self.places(line: 1)
        var source = PrintSource(dimension: 256, themes: 90, seed: 99)
        let newcomer = source.print(theme: 80, spread: 0.3)
        var probes = coded.probes
        probes[500] = source.near(newcomer, amount: 0.3)
        let printer = WidePrinter(prints: probes, dimension: 256)
        var configuration = VisionConfiguration.default
        configuration.printCodeLine = 1
        let base = VisualMatcher(
            configuration: configuration, printer: printer, printDimension: 256, segments: coded.matcher.segments,
            live: coded.matcher.live, groupIDs: coded.matcher.groupIDs, groupIndex: coded.matcher.groupIndex,
            keyIndex: coded.matcher.keyIndex, nullPrints: coded.matcher.nullPrints, calibration: nil)
        let edited = base.updated(adding: [place("newcomer", newcomer)], removingKeys: ["place-3"])
        #expect(edited.segmentCount == 2)
        let found = edited.match(try flatPicture(width: 500))
        #expect(found.candidates.first?.referenceID == "newcomer")
        #expect(edited.match(try flatPicture(width: 203)).candidates.allSatisfy { $0.referenceID != "place-3" })
        let compacted = edited.compacted()
        let segment = try #require(compacted.segments.first)
        #expect(compacted.segmentCount == 1 && segment.printCodes?.count == 60 && segment.prints.isEmpty)
        let after = compacted.match(try flatPicture(width: 500))
        #expect(after.candidates.first?.referenceID == "newcomer", "\(after.candidates.map { ($0.referenceID, $0.similarity ?? -1, $0.confidence) }) before \(found.candidates.map { ($0.referenceID, $0.similarity ?? -1, $0.confidence) })")
        for width in [200, 201, 205, 259, 500] {
            #expect(compacted.match(try flatPicture(width: width)).candidates.map(\.referenceID)
                    == edited.match(try flatPicture(width: width)).candidates.map(\.referenceID))
        }
    }

    @Test func aCodedMatcherIndexRoundTripsAndForgedCodesAreRefused() async throws {
        let coded = Self.places(line: 1)
        let folder = try TemporaryDirectory()
        let path = folder.file("matcher.index")
        let tag = MatcherIndexFile.tag(configuration: coded.matcher.configuration, printer: coded.matcher.printer, source: "wide")
        try coded.matcher.saveIndex(to: path, tag: tag)
        let load = { () throws(MatcherIndexError) -> VisualMatcher in
            try VisualMatcher.loadIndex(from: path, tag: tag, configuration: coded.matcher.configuration,
                                        printer: coded.matcher.printer, nullPrints: coded.matcher.nullPrints)
        }
        let loaded = try load()
        let (a, b) = (try #require(loaded.segments.first?.printCodes), try #require(coded.matcher.segments.first?.printCodes))
        #expect(a.index.codes == b.index.codes && a.index.entryIDs == b.index.entryIDs && a.scales == b.scales
                && a.levels == b.levels && a.index.model == b.index.model)
        #expect(await loaded.calibrated() == coded.matcher.printCalibration)
        for width in [200, 230, 300, 340] {
            #expect(loaded.match(try flatPicture(width: width)).candidates == coded.matcher.match(try flatPicture(width: width)).candidates)
        }
        // Another line is another tag; entries that name a row twice, or lists that run backwards, are refused.
        var other = coded.matcher.configuration
        other.printCodeLine = 2
        #expect(MatcherIndexFile.tag(configuration: other, printer: coded.matcher.printer, source: "wide") != tag)
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for (section, element, value) in [(MatcherIndexFile.Section.printEntries, 1, UInt32(0)),
                                          (.printEntries, 0, 60), (.printListStarts, 1, 61)] {
            let bytes = MatcherIndexFileTests.forged(whole, tag: tag, section, element: element, value: value)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let error = MatcherIndexFileTests.refusal(load)
            #expect(error.map { if case .malformed = $0 { true } else { false } } == true,
                    "\(section)[\(element)] = \(value): \(String(describing: error))")
        }
    }
}
