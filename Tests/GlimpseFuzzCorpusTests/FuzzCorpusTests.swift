import Foundation
@_spi(Fuzzing) import GlimpseCatalog
import GlimpseFeaturePrint
import GlimpseImage
import GlimpseIndex
import GlimpseLabels
import GlimpseTestSupport
import GlimpseVision
import GlimpseWire
import Testing

/// The committed seeds of the fuzz targets (Fuzz/Corpus) still load. A seed refused at its first check
/// (another format version, a checksum the format no longer uses, a cursor of an older catalog) only
/// teaches a fuzz target that first check, so a change to a file format, a wire type or the bundled
/// catalog must come with new seeds: `scripts/fuzz-seeds.sh`. The constants are those the seeds are
/// written with (Fuzz/Sources/glimpse-fuzz-seeds).
@Suite("Committed fuzz seeds")
struct FuzzCorpusTests {
    static let regenerate = "regenerate the seeds with scripts/fuzz-seeds.sh"

    /// The seeds of `target`, by file name.
    static func seeds(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = Repository.root + "/Fuzz/Corpus/" + target
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { name in
            (name, Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))))
        }
    }

    @Test("the JPEG and PNG seeds decode as their format", arguments: [("jpeg", ImageFormat.jpeg), ("png", .png)])
    func images(target: String, format: ImageFormat) throws {
        for seed in try Self.seeds(target) {
            let image = try? ImageDecoder.decode(seed.bytes)
            #expect(image?.format == format, "\(target)/\(seed.name) does not decode: \(Self.regenerate)")
        }
    }

    @Test("the label-model seeds load")
    func labelModels() throws {
        for seed in try Self.seeds("label-model") {
            #expect(throws: Never.self, "label-model/\(seed.name): \(Self.regenerate)") { try LabelModel.decode(seed.bytes) }
        }
    }

    @Test("the feature-cache seeds load with the key and print identity they were written with")
    func featureCaches() throws {
        for seed in try Self.seeds("feature-cache") {
            let identity = seed.name.hasPrefix("prints") ? "fuzz-printer" : nil
            #expect(throws: Never.self, "feature-cache/\(seed.name): \(Self.regenerate)") {
                try FeatureCache.decode(seed.bytes, expectedKey: 0x0123_4567_89AB_CDEF, configuration: .default,
                                        printIdentity: identity)
            }
        }
    }

    @Test("the index-file seeds load")
    func indexFiles() throws {
        for seed in try Self.seeds("index-file") {
            #expect(throws: Never.self, "index-file/\(seed.name): \(Self.regenerate)") {
                // A binary IVF index has its own decoder (it is not a nearest-neighbour index by itself).
                if seed.name.hasPrefix("binary-ivf") { _ = try IndexFile.decodeBinaryIVF(seed.bytes) } else { try IndexFile.decode(seed.bytes) }
            }
        }
    }

    @Test("the feature-print model seeds load")
    func featurePrintModels() throws {
        for seed in try Self.seeds("featureprint-model") {
            #expect(throws: Never.self, "featureprint-model/\(seed.name): \(Self.regenerate)") {
                try FeaturePrintModel.decode(seed.bytes)
            }
        }
    }

    @Test("the catalog seeds load, except the four written to be refused")
    func catalogs() throws {
        let refused: Set = ["dangling-collection.json", "duplicate-id.json", "not-an-object.json", "unknown-label.json"]
        for seed in try Self.seeds("catalog") {
            let loads = (try? Catalog(json: seed.bytes, directory: "/nonexistent", checkPhotos: false)) != nil
            #expect(loads != refused.contains(seed.name), "catalog/\(seed.name): \(Self.regenerate)")
        }
    }

    @Test("the cursor seeds page through the bundled catalog, as text and as signed bodies")
    func cursors() throws {
        let store = SnapshotStore(capacity: 1, cursorKey: CursorKey(passphrase: "glimpse fuzz cursor key"))
        let query = VisualSearchQuery(snapshot: store.publish(try Catalog.load(directory: Repository.images)), store: store)
        for seed in try Self.seeds("cursor") where seed.name != "garbage-text" {
            let body = Array(seed.bytes.dropFirst())
            let cursor = seed.bytes.first.map { $0 & 1 == 0 } ?? true
                ? String(decoding: body, as: UTF8.self) : store.cursorKey.signedCursor(body: body)
            #expect(throws: Never.self, "cursor/\(seed.name): \(Self.regenerate)") { try query.page(after: cursor) }
        }
    }

    @Test("the entity-query seeds are property queries, but for the text search")
    func entityQueries() throws {
        for seed in try Self.seeds("entity-query") where seed.name != "text-search" {
            #expect(throws: Never.self, "entity-query/\(seed.name): \(Self.regenerate)") {
                try JSONDecoder().decode(PropertyQueryJSON.self, from: Data(seed.bytes))
            }
        }
    }

    @Test("the edit-json seeds are edit bodies after their id byte (hand-written: Fuzz/Corpus/edit-json)")
    func editBodies() throws {
        let seeds = try Self.seeds("edit-json")
        #expect(seeds.count >= 5)
        for seed in seeds {
            let body = Data(seed.bytes.dropFirst())
            let decoded = (try? JSONDecoder().decode(PlaceEditJSON.self, from: body)) != nil
                || (try? JSONDecoder().decode(CollectionEditJSON.self, from: body)) != nil
                || (try? JSONDecoder().decode(LabelsJSON.self, from: body)) != nil
            #expect(decoded, "edit-json/\(seed.name) is no place, collection or label vocabulary body")
        }
    }
}
