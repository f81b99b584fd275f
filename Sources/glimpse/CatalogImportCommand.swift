import ArgumentParser
import Foundation
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseFiles
import GlimpseVision

/// `glimpse catalog import DIR`: a catalog folder into the store, in one transaction.
struct CatalogImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a catalog folder (catalog.json and its photos) into the store.",
        discussion: """
            The store must be empty unless --replace is given. Photo features are taken from the folder's \
            feature cache when it is valid (as `glimpse serve --catalog DIR` leaves it), else extracted.
            """
    )

    @Argument(help: "The catalog folder holding catalog.json.")
    var directory: String

    @OptionGroup var store: StoreOptions

    @Flag(help: "Replace whatever the store holds.")
    var replace = false

    @OptionGroup var featureCache: FeatureCacheOptions
    @OptionGroup var featurePrint: FeaturePrintOptions

    func run() async throws {
        var store = self.store
        if store.store == nil { store.catalog = directory }  // the store `glimpse serve --catalog DIR` uses
        let opened = try await store.open(mode: .write, create: true)
        let target = opened.store
        let extraction = try PhotoExtraction(featurePrint: featurePrint, catalogDirectory: directory)
        let cachePath = featureCache.prepare(catalogDirectory: directory)
        let started = ContinuousClock.now
        let applied = try await StoreCommandFailure.run { () async throws(StoreError) in
            try await CatalogTransfer.importFolder(
                directory, into: target, replace: replace, featuresKey: extraction.key
            ) { (photos) throws(VisionError) in
                try ReferenceLoader.load(
                    photos: photos.map { ReferencePhoto(id: $0.placeID, path: $0.path) }, configuration: extraction.configuration, cachePath: cachePath, cacheIsOptional: true,
                    threads: ProcessInfo.processInfo.activeProcessorCount, printer: extraction.printer,
                    progress: BuildProgressReport.extraction("catalog import")
                ).references.map { EncodedFeatures($0.features) }
            }
        }
        let elapsed = ContinuousClock.now - started
        let places = applied.places.values.compactMap { $0 }
        print("imported \(places.count) places, \(places.reduce(0) { $0 + $1.photos.count }) photos, "
            + "\(applied.collections.count) collections into \(opened.location) (sequence \(applied.sequence)) in \(elapsed)")
    }
}
