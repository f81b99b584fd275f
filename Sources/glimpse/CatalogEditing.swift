import ArgumentParser
import Foundation
import GlimpseCatalog
import GlimpseFeaturePrint
import GlimpseFiles
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseVision
import GlimpseEngine
import GlimpseWire

/// What every editing command shares: the store (or a daemon's socket), `--if-match`, and how features
/// of new photos are made.
struct CatalogEditOptions: ParsableArguments {
    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp(
        "Send the edit to the daemon serving the store, on this socket (it must let this user edit).",
        valueName: "path"))
    var socket: String?

    @Option(name: .customLong("if-match"), help: ArgumentHelp(
        "Apply only if the entity is at this revision ('*': only if it exists).", valueName: "rev"))
    var ifMatch: String?

    @Flag(name: .customLong("if-none-match"), help: "Apply only if the entity does not exist yet.")
    var ifNoneMatch = false

    @OptionGroup var featurePrint: FeaturePrintOptions

    func validate() throws {
        if ifMatch != nil && ifNoneMatch { throw ValidationError("--if-match and --if-none-match exclude each other") }
        if let ifMatch, ifMatch != "*", Int64(ifMatch) == nil {
            throw ValidationError("--if-match takes a revision number or '*'")
        }
    }

    /// The edit's precondition.
    var precondition: Precondition {
        if ifNoneMatch { return .mustNotExist }
        guard let ifMatch else { return .none }
        return Int64(ifMatch).map { .revision($0) } ?? .mustExist
    }

    /// Sends `edit` to the daemon (with `--socket`) or the store file, and prints what it did.
    func send(_ edit: CatalogEdit) async throws {
        if let socket {
            do {
                print(try await SocketEdit.send(edit, socket: socket))
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                throw ExitCode(1)
            }
            return
        }
        let target = try await store.open(mode: .write, create: false).store
        let applied = try await StoreCommandFailure.run { () async throws(StoreError) in try await target.apply(edit) }
        print(Self.summary(applied))
    }

    /// One line per changed entity, with its new revision.
    static func summary(_ applied: AppliedEdit) -> String {
        guard applied.changed else { return "unchanged (sequence \(applied.sequence))" }
        var lines = ["sequence \(applied.sequence)"]
        for (id, place) in applied.places.sorted(by: { $0.key < $1.key }) {
            lines.append(place.map { "place \(id): revision \($0.revision), \($0.photos.count) photos" } ?? "place \(id): deleted")
        }
        for (id, collection) in applied.collections.sorted(by: { $0.key < $1.key }) {
            lines.append(collection.map { "collection \(id): revision \($0.revision)" } ?? "collection \(id): deleted")
        }
        if let labels = applied.labels { lines.append("labels: \(labels.count)") }
        return lines.joined(separator: "\n")
    }

    /// How the features of new photos are made (loads the feature-print model once); through a socket
    /// the daemon makes them, so nothing is loaded.
    func extraction() throws -> PhotoExtraction {
        socket == nil ? try PhotoExtraction(featurePrint: featurePrint, catalogDirectory: store.catalog) : .byTheDaemon
    }

    /// Reads the photo at `path` and extracts its features as the engine does for references, with the
    /// feature-print model when one is found.
    func newPhoto(at path: String, name: String, credit: PhotoCredit?, extraction: PhotoExtraction) throws -> NewPhoto {
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try AtomicFile.readAll(path)
        } catch {
            throw StoreCommandFailure(.io(path: path, reason: error.reason)).exitCode
        }
        guard extraction.extracts else {
            // The daemon decodes the bytes and extracts the features; none are sent.
            return NewPhoto(bytes: bytes, name: name, credit: credit,
                            features: EncodedFeatures(ImageFeatures(width: 1, height: 1, keypoints: [], descriptorWords: [])),
                            featuresKey: "")
        }
        do throws(VisionError) {
            let features = try ReferenceLoader.features(
                ofPhotoBytes: bytes, name: path, configuration: extraction.configuration, printer: extraction.printer)
            return NewPhoto(
                bytes: bytes, name: name, credit: credit, features: EncodedFeatures(features), featuresKey: extraction.key)
        } catch {
            throw StoreCommandFailure(.invalid(reason: error.description)).exitCode
        }
    }
}

/// How reference features are made: the default vision settings and the feature printer the engine loads.
struct PhotoExtraction {
    let configuration = VisionConfiguration.default
    let printer: FeaturePrinterPool?
    /// Whether features are made here (not when a daemon makes them).
    var extracts = true

    /// No extraction: the edit goes to a daemon, which extracts.
    static let byTheDaemon = PhotoExtraction(printer: nil, extracts: false)

    private init(printer: FeaturePrinterPool?, extracts: Bool) {
        self.printer = printer
        self.extracts = extracts
    }

    init(featurePrint: FeaturePrintOptions, catalogDirectory: String? = nil) throws {
        let choice = featurePrint.choice(catalogDirectory: catalogDirectory)
        switch choice {
        case .off:
            printer = nil
        case .automatic, .file:
            let explicit: String? = if case .file(let path) = choice { path } else { nil }
            do throws(FeaturePrintModelError) {
                printer = try FeaturePrinterPool.load(explicit: explicit, catalogDirectory: catalogDirectory)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// The key the features are stored under.
    var key: String { FeatureCoding.key(configuration: configuration, printIdentity: printer?.featurePrintIdentity) }
}
