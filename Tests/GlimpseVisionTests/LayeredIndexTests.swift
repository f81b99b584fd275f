import GlimpseBasics
import GlimpseTestSupport
import Testing
@testable import GlimpseVision

/// The matcher's layered maps answer as plain dictionaries and arrays under any mix of changes, and a large
/// matcher folds after quiet edits only once its added segment is large.
@Suite struct LayeredIndexTests {
    @Test func aLayeredIndexAnswersAsADictionaryUnderRandomChanges() {
        var generator = SeededGenerator(seed: 29)
        var base: [String: Int] = [:]
        for n in 0..<500 { base["key-\(n)"] = n }
        var layered = LayeredIndex(base)
        var model = base
        for step in 0..<5_000 {
            let key = "key-\(Int(generator.next() % 700))"
            switch generator.next() % 3 {
            case 0:
                #expect(layered.updateValue(step, forKey: key) == model.updateValue(step, forKey: key))
            case 1:
                #expect(layered.removeValue(forKey: key) == model.removeValue(forKey: key))
            default:
                layered[key] = step % 2 == 0 ? step : nil
                model[key] = step % 2 == 0 ? step : nil
            }
            #expect(layered[key] == model[key])
            #expect(layered.count == model.count)
        }
        #expect(Set(layered.keys) == Set(model.keys) && layered.keys.count == model.count)
        for n in 0..<700 { #expect(layered["key-\(n)"] == model["key-\(n)"]) }
    }

    @Test func aCopyChangesAloneAndLayeredNamesAppendAfterTheirBase() {
        let original = LayeredIndex(["a": 0, "b": 1])
        var copy = original
        copy["c"] = 2
        copy["a"] = nil
        #expect(original["a"] == 0 && original["c"] == nil && original.count == 2)
        #expect(copy["a"] == nil && copy["c"] == 2 && copy.count == 2)

        var names = LayeredNames(["x", "y"])
        let before = names
        names.append("z")
        #expect(Array(names) == ["x", "y", "z"] && names.count == 3 && names[2] == "z")
        #expect(Array(before) == ["x", "y"])
    }

    /// Built on a thread of its own: minutes of blocking work in the parallel suite, which must not hold a
    /// Swift concurrency thread that in-process daemons of other tests need.
    @Test func aLargeMatcherFoldsAfterQuietEditsOnlyOnceItsAddedSegmentIsLarge() async {
        let features = CompactFeaturesTests.synthetic(perLevel: [4])
        let count = VisualMatcher.quietFoldLimit + 1
        let large = await offThread {
            var builder = VisualMatcherBuilder()
            builder.add((0..<count).map { MatcherReference(id: "place-\($0)", key: "place-\($0)#0", features: features) })
            return builder.build()
        }
        #expect(!large.foldsWhenQuiet)
        let one = large.updated(adding: [MatcherReference(id: "new", key: "new#0", features: features)],
                                removingKeys: ["place-7#0"])
        #expect(one.hasChanges && !one.foldsWhenQuiet)
        #expect(one.contains(key: "new#0") && !one.contains(key: "place-7#0") && large.contains(key: "place-7#0"))
        #expect(one.referenceCount == count && large.referenceCount == count)
        // Added photos of 512 keypoints: 128 of them fill what an edit may rebuild, far from an eighth of the matcher.
        let rich = CompactFeaturesTests.synthetic(perLevel: [256, 256])
        let added = VisualMatcher.addedFoldDescriptors / rich.count
        let fewer = await offThread {
            one.updated(
                adding: (0..<(added - 2)).map { MatcherReference(id: "added-\($0)", key: "added-\($0)#0", features: rich) },
                removingKeys: [])
        }
        #expect(!fewer.foldsWhenQuiet)
        let many = fewer.updated(
            adding: (0..<2).map { MatcherReference(id: "more-\($0)", key: "more-\($0)#0", features: rich) }, removingKeys: [])
        #expect(many.foldWhenQuiet == .additions)
        #expect(Set(many.referenceKeys).count == count + added && !many.needsCompaction)
        // Folding the additions leaves nothing to fold until as much is added again.
        let folded = many.foldedAdditions()
        #expect(folded.segmentCount == 2 && !folded.foldsWhenQuiet && folded.referenceCount == many.referenceCount)
        let next = folded.updated(adding: [MatcherReference(id: "last", key: "last#0", features: features)], removingKeys: [])
        #expect(next.segmentCount == 3 && !next.foldsWhenQuiet && next.contains(key: "more-1#0") && next.contains(key: "last#0"))

        let small = VisualMatcher(keyedReferences: [MatcherReference(id: "a", key: "a#0", features: features)])
        #expect(!small.foldsWhenQuiet)
        #expect(small.updated(adding: [MatcherReference(id: "b", key: "b#0", features: features)], removingKeys: []).foldWhenQuiet == .whole)
    }
}
