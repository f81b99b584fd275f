// glimpse-store-bench: the catalog store's costs on this machine.
//
//   glimpse-store-bench [--catalog Images] [--places 10000] [--edits 200] [--dir DIR]
//
// Imports the catalog folder (features from its feature cache when valid, as `glimpse catalog import`
// does), grows the store to --places places (synthetic: the real photos' bytes and features under new
// ids, in one transaction), then times --edits durable putPlace commits, each with a new photo of its
// own (a real photo's bytes with 8 unique bytes appended). Build with `-c release`.
import Foundation
import GlimpseBasics
import GlimpseCatalog
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseFeaturePrint
import GlimpseFiles
import GlimpseVision
import GlimpseWire

func option(_ name: String, _ fallback: String) -> String {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}

let catalogFolder = option("--catalog", "Images")
let placeCount = Int(option("--places", "10000")) ?? 10_000
let editCount = Int(option("--edits", "200")) ?? 200
let folder = option("--dir", NSTemporaryDirectory() + "glimpse-store-bench-\(getpid())")
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
let path = folder + "/catalog.sqlite"
for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }

let store = try SQLiteCatalogStore.open(path: path, create: true)
let configuration = VisionConfiguration.default
let printer = try FeaturePrinterPool.load(explicit: nil, catalogDirectory: catalogFolder)
let key = FeatureCoding.key(configuration: configuration, printIdentity: printer?.featurePrintIdentity)
let cachePath = Catalog.defaultFeatureCachePath(forDirectory: catalogFolder)

var source: ReferenceLoader.Source?
let importStart = ContinuousClock.now
let imported = try await CatalogTransfer.importFolder(catalogFolder, into: store, featuresKey: key) { (photos) throws(VisionError) in
    let loaded = try ReferenceLoader.load(photos: photos.map { ReferencePhoto(id: $0.placeID, path: $0.path) }, configuration: configuration, cachePath: cachePath,
                                          cacheIsOptional: true, threads: 2, printer: printer)
    source = loaded.source
    return loaded.references.map { EncodedFeatures($0.features) }
}
let importTime = ContinuousClock.now - importStart
print("import: \(imported.places.count) places in \(importTime.milliseconds) ms (features from \(source?.rawValue ?? "?"))")

// Grow to placeCount places reusing the real photos (their contents are stored once).
let base = try await store.read(featuresKey: key)
var definition = base.definition
var photos: [[NewPhoto]] = []
var realPhotos: [NewPhoto] = []
for place in base.places {
    let photo = place.photos[0]
    guard let features = photo.features else { fatalError("photo \(photo.name) has no features under the key") }
    realPhotos.append(NewPhoto(bytes: try await store.photoBytes(sha256: photo.sha256), name: photo.name,
                               credit: photo.credit, features: features, featuresKey: key))
}
photos = base.places.indices.map { [realPhotos[$0]] }
var n = 0
while definition.places.count < placeCount {
    var place = base.places[n % base.places.count].definition
    place.id = "synthetic-\(n)"
    definition.places.append(place)
    photos.append([realPhotos[n % realPhotos.count]])
    n += 1
}
let growStart = ContinuousClock.now
_ = try await store.apply(.replaceCatalog(definition, photos: photos, replace: true))
print("grow to \(definition.places.count) places in one transaction: \((ContinuousClock.now - growStart).milliseconds) ms")

let readStart = ContinuousClock.now
let full = try await store.read(featuresKey: key)
print("read(featuresKey:) of \(full.places.count) places: \((ContinuousClock.now - readStart).milliseconds) ms")
// The store returns features in their stored coding; the engine decodes them (as a read did before).
let decodeAllStart = ContinuousClock.now
for place in full.places { for photo in place.photos { _ = try photo.features?.decoded() } }
print("decoding those features: \((ContinuousClock.now - decodeAllStart).milliseconds) ms")

let bareStart = ContinuousClock.now
_ = try await store.read(featuresKey: nil)
print("read(featuresKey: nil) of \(full.places.count) places: \((ContinuousClock.now - bareStart).milliseconds) ms")
let blob = realPhotos[0].features.bytes
let decodeStart = ContinuousClock.now
for _ in 0..<1000 { _ = try FeatureCoding.decode(blob) }
print("FeatureCoding.decode of one \(blob.count / 1024) KB blob: \((ContinuousClock.now - decodeStart).milliseconds) ms")

var samples: [Double] = []
for i in 0..<editCount {
    let real = realPhotos[i % realPhotos.count]
    var bytes = real.bytes
    withUnsafeBytes(of: UInt64(i).littleEndian) { bytes.append(contentsOf: $0) }
    let photo = NewPhoto(bytes: bytes, name: "photos/new-\(i).jpg", credit: real.credit, features: real.features,
                         featuresKey: key)
    var place = base.places[i % base.places.count].definition
    place.id = "edit-\(i)"
    let start = ContinuousClock.now
    let applied = try await store.apply(.putPlace(place, photos: [photo], precondition: .mustNotExist))
    samples.append((ContinuousClock.now - start).milliseconds)
    precondition(applied.changed)
}
let summary = LatencySummary(samples: samples)
let photoKB = realPhotos.map(\.bytes.count).reduce(0, +) / realPhotos.count / 1024
let featureKB = realPhotos.map(\.features.bytes.count).reduce(0, +) / realPhotos.count / 1024
print("putPlace with one new photo (~\(photoKB) KB, features ~\(featureKB) KB) into \(placeCount) places, "
    + "\(editCount) commits: p50 \(summary.p50) ms, p99 \(summary.p99) ms, max \(summary.max) ms")
let growth = try await store.counts()
print("store file: \((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap { $0 }.map { $0 / 1_048_576 } ?? 0) MiB, "
    + "\(growth["places"] ?? 0) places, \(growth["photo contents"] ?? 0) photo contents")
let reader = ContinuousClock.now
_ = try SQLiteCatalogStore.open(path: path, mode: .read)
print("open for reading (quick_check included): \((ContinuousClock.now - reader).milliseconds) ms")
try? FileManager.default.removeItem(atPath: folder)
