// What the hidden checks of `glimpse eval` share: the catalog's reference features and how a result is printed.
import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseFeaturePrint
import GlimpseVision

extension EvalCommand {
    /// Prints a check's result: as JSON with `--json`, otherwise as `text`.
    func report<Check: Encodable>(_ check: Check, text: String) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(check), as: UTF8.self))
        } else {
            print(text)
        }
    }

    /// The features, with prints, of every photo of `places`, each under its place's id: from the feature
    /// cache when it is valid, otherwise extracted (and cached when the cache can be written).
    func catalogReferences(
        places: [PlaceEntity], vision: VisionConfiguration, printer: any FeaturePrinting
    ) throws -> [(id: String, features: ImageFeatures)] {
        let photos = places.flatMap { place in place.photos.map { ReferencePhoto(id: place.id, path: $0.path) } }
        do {
            return try ReferenceLoader.load(
                photos: photos, configuration: vision, cachePath: engine.featureCache.prepare(catalogDirectory: engine.catalog),
                cacheIsOptional: true, threads: max(1, ProcessInfo.processInfo.activeProcessorCount), printer: printer
            ).references
        } catch {
            throw IntentsCommandError(error.description)
        }
    }

    /// The features of the `--distractor-pool` manifest's photos (extracted, not cached), or `nil`
    /// without one: distractors are then made from the catalog's photos.
    func distractorPoolFeatures(vision: VisionConfiguration, printer: any FeaturePrinting) throws -> [ImageFeatures]? {
        guard let photos = try distractorPoolPhotos() else { return nil }
        do {
            return try ReferenceLoader.load(
                photos: photos, configuration: vision, threads: max(1, ProcessInfo.processInfo.activeProcessorCount),
                printer: printer
            ).references.map(\.features)
        } catch {
            throw IntentsCommandError(error.description)
        }
    }

    /// The photos the `--distractor-pool` manifest lists, or `nil` without one.
    func distractorPoolPhotos() throws -> [ReferencePhoto]? {
        guard let distractorPool else { return nil }
        return try QueryManifest.load(path: distractorPool).enumerated().map {
            ReferencePhoto(id: "pool-\($0.offset)", path: $0.element.path)
        }
    }
}
