import Foundation
import GlimpseImage
import GlimpseVision
import Testing
@testable import GlimpseCatalog

/// The catalog matcher's saved index: loaded instead of extracting and indexing when it was built from the
/// same photos and settings; rebuilt, saved again and reported when it is stale or damaged.
@Suite("Matcher index of the catalog matcher")
struct CatalogMatcherIndexTests {
    typealias Copy = CatalogFeatureCacheTests.CopiedCatalog

    /// The built matcher, where its references came from, and why a saved index was not used.
    static func build(_ copy: Copy, index: String) async throws
        -> (matcher: VisualMatcher, source: ReferenceLoader.Source, problem: VisionError?) {
        let built = try await copy.catalog.buildVisualMatcher(
            placeIDs: CatalogFeatureCacheTests.registered, matcherIndex: index)
        return (built.matcher, built.source, built.cacheProblem)
    }

    /// The place each registered photo is accepted as.
    static func answers(_ matcher: VisualMatcher, _ copy: Copy) throws -> [String?] {
        try CatalogFeatureCacheTests.registered.sorted().map { id in
            let picture = try ImageDecoder.decode(contentsOfFile: try copy.photoPath(id)).pixelBuffer
            return matcher.match(picture).accepted?.referenceID
        }
    }

    @Test("a second start loads the saved index, and a changed photo or a damaged file rebuilds it")
    func indexIsLoadedThenRebuiltWhenStaleOrDamaged() async throws {
        let copy = try Copy()
        defer { copy.remove() }
        let index = copy.folder.appendingPathComponent("matcher.index").path
        let first = try await Self.build(copy, index: index)
        #expect(first.source == .extracted && first.problem == nil)
        #expect(FileManager.default.fileExists(atPath: index))
        let expected = CatalogFeatureCacheTests.registered.sorted().map { Optional($0) }
        #expect(try Self.answers(first.matcher, copy) == expected)

        let second = try await Self.build(copy, index: index)
        #expect(second.source == .matcherIndex && second.problem == nil)
        #expect(second.matcher.referenceIDs == first.matcher.referenceIDs)
        #expect(try Self.answers(second.matcher, copy) == expected)

        // A photo touched: the index was built from other photos, and is rebuilt.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_700_000_500)], ofItemAtPath: try copy.photoPath("eiffel-tower"))
        let third = try await Self.build(copy, index: index)
        #expect(third.source == .extracted)
        guard case .matcherIndex(.builtForOther) = third.problem else {
            Issue.record("a stale index was not reported: \(String(describing: third.problem))")
            return
        }
        #expect(try await Self.build(copy, index: index).source == .matcherIndex)

        // A damaged file is rebuilt, never used.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: index))
        bytes[bytes.count / 2] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: index))
        let fourth = try await Self.build(copy, index: index)
        #expect(fourth.source == .extracted && fourth.problem == .matcherIndex(.checksum(path: index)))
        #expect(try Self.answers(fourth.matcher, copy) == expected)
        #expect(try await Self.build(copy, index: index).source == .matcherIndex)
    }

    @Test("a photo that cannot be examined is named as without an index")
    func aMissingPhotoIsNamedAsWithoutAnIndex() async throws {
        let copy = try Copy()
        defer { copy.remove() }
        let index = copy.folder.appendingPathComponent("matcher.index").path
        _ = try await Self.build(copy, index: index)
        let photo = try copy.photoPath("chichen-itza")
        try FileManager.default.removeItem(atPath: photo)
        do {
            _ = try await Self.build(copy, index: index)
            Issue.record("a catalog with a missing photo was served from its old index")
        } catch {
            guard case .undecodablePhoto(let placeID, let path, _) = error as? CatalogError else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(placeID == "chichen-itza" && path == photo)
        }
    }
}
