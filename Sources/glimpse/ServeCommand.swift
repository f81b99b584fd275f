import ArgumentParser
import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseFeaturePrint
import GlimpseImage
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseVision
import GlimpseWire
import GlimpseServer
import Logging

/// `glimpse serve`: the visual-search daemon on a Unix socket.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve visual search over HTTP/1.1 on a Unix domain socket.",
        discussion: """
            Serves a catalog store (--store; by default one per --catalog folder, created and filled from \
            the folder when empty, and filled again when the folder changed while the store was not \
            edited), and answers POST /v1/query, the entity routes and the catalog-edit routes (see \
            docs/api.md) until SIGTERM or SIGINT, which stop accepting, finish in-flight requests and \
            remove the socket. Requests still waiting when --shutdown-grace runs out are answered 503 with \
            Retry-After. Edits are taken from the daemon's own user, or the peers --admin-uid and \
            --admin-gid name; --read-only refuses them all; --no-store serves the folder as it is.

            Socket activation: started by systemd (or systemd-socket-activate) with one listening Unix \
            stream socket (LISTEN_PID, LISTEN_FDS), the daemon serves on that socket instead of binding \
            --socket, and leaves its path and mode to the service manager. With Type=notify it reports \
            READY=1 once it accepts connections and STOPPING=1 when it begins to stop (NOTIFY_SOCKET). \
            See deploy/ for unit files.

            Exit status: 0 after a clean stop; 64 for a bad option or a socket path that is too long; \
            65 for an invalid catalog; 66 for a missing catalog; 69 when a daemon is already running on \
            the path or something that is not a socket is there, or another process holds the store; \
            74 when the socket or the store cannot be set up; 78 when the socket passed by the service \
            manager is unusable.
            """
    )

    @Option(help: "The socket path. Default: the socket passed by the service manager, else $XDG_RUNTIME_DIR/glimpse/glimpse.sock, else /run/glimpse/glimpse.sock.")
    var socket: String?

    @OptionGroup var engine: EngineOptions

    @OptionGroup(title: "HTTP listener (web console)") var httpListener: HTTPListenerOptions

    @Option(help: """
        The catalog store to serve and edit: a SQLite file, or a PostgreSQL database that several daemons \
        share (postgres://user@host/db, or 'postgres' for the PG* variables). Default: $GLIMPSE_STORE, else \
        stores/<folder>-<hash>.sqlite in $XDG_DATA_HOME/glimpse (~/.local/share/glimpse) for the --catalog folder.
        """)
    var store: String?

    @Flag(help: "Serve the --catalog folder as it is, without a store: nothing can be edited.")
    var noStore = false

    @Option(help: "Allow this user id to edit the catalog (repeatable; default: only the daemon's own user).")
    var adminUid: [UInt32] = []

    @Option(help: "Allow this group id, primary or supplementary, to edit the catalog (repeatable).")
    var adminGid: [UInt32] = []

    @Flag(help: "Refuse every catalog edit with 403.")
    var readOnly = false

    @Option(help: "The socket's permission bits, in octal (not applied to a socket passed by the service manager: set SocketMode= there).")
    var socketMode: String = "660"

    @Option(help: "Allow only peers with this user id (repeatable; checked with SO_PEERCRED).")
    var allowUid: [UInt32] = []

    @Option(help: "Allow only peers with this group id, primary or supplementary (repeatable; checked with SO_PEERCRED and SO_PEERGROUPS).")
    var allowGid: [UInt32] = []

    @Option(help: "The largest request body, in bytes.")
    var maxBodyBytes: Int = ServerLimits().maxBodyBytes

    @Option(help: "The largest picture, in pixels.")
    var maxPixels: Int = ServerLimits().maxDecodePixels

    @Option(help: "Queries decoded and matched at once. Default: the number of cores.")
    var maxConcurrentQueries: Int = ServerLimits().maxConcurrentQueries

    @Option(help: "Queries that may wait for a free slot before new ones get 503.")
    var maxQueuedQueries: Int = ServerLimits().maxQueuedQueries

    @Option(help: "Request-body bytes that admitted queries may hold at once; a query that does not fit gets 503 before its body is read. At least --max-body-bytes.")
    var maxBufferedBytes: Int = ServerLimits().maxBufferedBytes

    @Option(help: "Connections served at once; when all are taken, the one waiting longest for a request head makes room.")
    var maxConnections: Int = ServerLimits().maxConnections

    @Option(help: "Seconds a silent connection stays open (between requests).")
    var idleTimeout: Int = 30

    @Option(help: "Seconds a client may take to send a whole request head, from its first byte (then 408).")
    var headerTimeout: Int = 5

    @Option(help: "Seconds a request body may take to arrive.")
    var requestDeadline: Int = 30

    @Option(help: "Seconds in-flight requests get to finish after SIGTERM/SIGINT.")
    var shutdownGrace: Int = 10

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard UInt32(socketMode, radix: 8).map({ $0 <= 0o777 }) == true else {
            throw ValidationError("--socket-mode \(socketMode) is not an octal mode such as 660 or 600")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level \(logLevel) is not one of trace, debug, info, notice, warning, error, critical")
        }
        guard idleTimeout > 0, headerTimeout > 0, requestDeadline > 0, shutdownGrace > 0 else {
            throw ValidationError(
                "--idle-timeout, --header-timeout, --request-deadline and --shutdown-grace must be at least 1 second")
        }
        guard maxBufferedBytes >= maxBodyBytes else {
            throw ValidationError(
                "--max-buffered-bytes \(maxBufferedBytes) is less than --max-body-bytes \(maxBodyBytes); "
                    + "a body of the largest size could never be admitted")
        }
    }

    func run() async throws {
        var logger = Logger(label: "glimpse.serve")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let environment = ProcessInfo.processInfo.environment
        let activated: ActivatedSocket?
        do {
            activated = try ActivatedSocket.takeFromEnvironment(environment)
        } catch {
            FileHandle.standardError.write(Data("glimpse serve: \(error.message)\n".utf8))
            throw ExitCode(Self.exitStatus(for: error.code))
        }
        if let activated, let socket, socket != activated.path {
            FileHandle.standardError.write(Data(
                "glimpse serve: --socket \(socket) but the service manager passed a socket bound to \(activated.path); drop --socket or make the two agree\n".utf8))
            throw ExitCode(64)
        }
        let path = activated?.path ?? socket ?? GlimpseServerConfiguration.defaultSocketPath(environment: environment)
        let limits = ServerLimits(
            maxBodyBytes: maxBodyBytes,
            idleTimeout: .seconds(idleTimeout),
            headerTimeout: .seconds(headerTimeout),
            requestDeadline: .seconds(requestDeadline),
            maxDecodePixels: maxPixels,
            maxConcurrentQueries: maxConcurrentQueries,
            maxQueuedQueries: maxQueuedQueries,
            maxBufferedBytes: maxBufferedBytes,
            maxConnections: maxConnections
        )
        var configuration = GlimpseServerConfiguration(
            socketPath: path,
            socketMode: UInt32(socketMode, radix: 8) ?? 0o660,
            limits: limits,
            peerPolicy: PeerPolicy(allowedUIDs: Set(allowUid), allowedGIDs: Set(allowGid)),
            shutdownGracePeriod: .seconds(shutdownGrace),
            adminPolicy: adminUid.isEmpty && adminGid.isEmpty
                ? PeerPolicy(allowedUIDs: [getuid()]) : PeerPolicy(allowedUIDs: Set(adminUid), allowedGIDs: Set(adminGid)),
            readOnly: readOnly
        )
        configuration.activatedSocket = activated
        do {
            configuration.http = try httpListener.configuration()
        } catch {
            FileHandle.standardError.write(Data("glimpse serve: \(error.message)\n".utf8))
            throw ExitCode(64)
        }
        configuration.serviceNotifier = ServiceNotifier(environment: environment)
        do {
            // Refuse a live daemon, a non-socket or a too-long path before the slow catalog load.
            if activated == nil {
                try UnixSocketFile.claim(path: path, directoryMode: 0o700, logger: logger).release()
            }
            let start = ContinuousClock.now
            let loaded: Engine
            var editor: (any CatalogEditService)?
            var following: Task<Void, Never>?
            defer { following?.cancel() }
            var served = "catalog folder \(engine.catalog) (read-only)"
            if noStore {
                do {
                    let progress = Self.progressLog(logger)
                    let slotEvents = Self.slotLog(logger)
                    loaded = try await engine.load(command: "serve") { configuration in
                        configuration.buildProgress = progress
                        configuration.keypointSlotEvents = slotEvents
                    }
                } catch {
                    FileHandle.standardError.write(Data("glimpse serve: \(error)\n".utf8))
                    throw ExitCode(error.isMissingFile ? 66 : 65)
                }
            } else {
                let (live, location) = try await openStore(logger: logger)
                loaded = live.engine
                editor = LiveCatalogEditService(
                    live: live, storeKind: location.kind,
                    limits: DecodingLimits(maxInputBytes: limits.maxBodyBytes, maxPixels: limits.maxDecodePixels))
                served = "store \(location) (sequence \(await live.sequence))"
                // A store other daemons write too is followed: their edits are served within a second.
                let followLogger = logger
                following = Task { await live.follow { event in Self.log(event, logger: followLogger) } }
            }
            if let problem = loaded.current.cacheProblem {
                logger.notice("the matcher index was not used; the matcher was built and is saved again", metadata: [
                    "reason": "\(problem)"])
            }
            let service = CatalogSearchService(engine: loaded)
            logger.info(
                "catalog loaded",
                metadata: [
                    "catalog": "\(served)", "places": "\(service.placeCount)",
                    "collections": "\(service.collectionCount)",
                    "labels": "\(loaded.labeler == nil ? "from matched places only (no label model)" : "label model")",
                    "featureprint": "\(loaded.featurePrinter == nil ? "off" : "on")",
                    "took": "\(ContinuousClock.now - start)",
                ]
            )
            Self.logPrintLine(of: loaded, service: service, catalog: engine.catalog, logger: logger)
            let server = try GlimpseServer(configuration: configuration, service: service, editor: editor, logger: logger)
            try await server.runUntilSignalled(logger: logger)
        } catch let error as GlimpseServerError {
            FileHandle.standardError.write(Data("glimpse serve: \(error.message)\n".utf8))
            throw ExitCode(Self.exitStatus(for: error.code))
        }
    }

    /// Opens the store (creating it, and filling it from the --catalog folder as ``StoreSeeding`` says)
    /// and starts the live catalog on it; failures print a sentence and exit with a sysexits status.
    private func openStore(logger: Logger) async throws -> (live: LiveCatalog, location: StoreLocation) {
        var configuration = engine.configuration()
        configuration.buildProgress = Self.progressLog(logger)
        configuration.keypointSlotEvents = Self.slotLog(logger)
        let location = StoreLocation(store: store, catalogDirectory: engine.catalog)
        let path = location.description
        func fail(_ error: any CustomStringConvertible, status: Int32) -> ExitCode {
            FileHandle.standardError.write(Data("glimpse serve: \(error)\n".utf8))
            return ExitCode(status)
        }
        let storeLogger = logger
        let opened: OpenedStore
        do {
            // A database that is down is waited for: the daemon starts once it is back.
            opened = try await location.open(mode: .write, create: true, logger: logger) { reason in
                storeLogger.error("waiting for the catalog database to be reachable", metadata: [
                    "store": "\(location)", "reason": "\(reason)"])
            }
        } catch {
            switch error {
            case .busy: throw fail(error, status: 69)
            case .corrupt, .schemaTooNew: throw fail(error, status: 65)
            case .invalid: throw fail(error, status: 64)
            default: throw fail(error, status: 74)
            }
        }
        if let sqlite = opened.store as? SQLiteCatalogStore {
            if sqlite.photosMovedToFiles > 0 {
                logger.notice("the store's photos moved from the database to its photo folder, which is now part of the store (back it up with the database)",
                              metadata: ["photos": "\(sqlite.photosMovedToFiles)", "folder": "\(sqlite.photoFolder)"])
            }
            if sqlite.strayPhotoFilesRemoved > 0 {
                logger.notice("photo files no row names (left by an interrupted edit) were removed",
                              metadata: ["files": "\(sqlite.strayPhotoFilesRemoved)", "folder": "\(sqlite.photoFolder)"])
            }
        }
        let models: EngineModels
        do { models = try EngineModels.load(configuration) } catch {
            throw fail(error, status: error.isMissingFile ? 66 : 65)
        }
        // A daemon that found no model says so loudly: it matches on keypoints alone, labels nothing
        // without a matched place, and stores its edits' features under another key than one with them.
        if configuration.featurePrintModel == .automatic, models.featurePrinter == nil {
            logger.warning(
                "no feature-print model found: matching runs on keypoints alone and edits store features without prints; name one with --featureprint-model FILE or \(FeaturePrintModel.environmentVariable), or run from a folder holding \(FeaturePrintModel.conventionalPath)",
                metadata: ["catalog": "\(engine.catalog)"])
        }
        if configuration.labelModel == .automatic, models.labeler == nil {
            logger.warning(
                "no label model found: answers carry labels only from matched places; name one with --label-model FILE",
                metadata: ["catalog": "\(engine.catalog)"])
        }
        if store == nil || FileManager.default.fileExists(atPath: engine.catalog + "/" + Catalog.fileName) {
            do {
                let outcome = try await StoreSeeding.seed(
                    opened.store, from: engine.catalog, refresh: store == nil, models: models,
                    featureCache: configuration.featureCache)
                switch outcome {
                case .imported(let sequence), .reimported(let sequence):
                    logger.info("store filled from the catalog folder", metadata: [
                        "store": "\(path)", "folder": "\(engine.catalog)", "sequence": "\(sequence)"])
                case .storeEdited(let sequence):
                    logger.info("serving the store as edited; the catalog folder is not read again", metadata: [
                        "store": "\(path)", "folder": "\(engine.catalog)", "sequence": "\(sequence)"])
                case .upToDate:
                    break
                }
            } catch StoreError.conflict where location.isShared {
                // Another daemon filled the shared database first: serve what it holds.
                logger.info("the catalog database was filled by another daemon meanwhile", metadata: ["store": "\(path)"])
            } catch {
                let status: Int32
                switch error {
                case .invalidCatalog(.unreadable): status = 66
                case .invalidCatalog, .invalid: status = 65
                default: status = 74
                }
                throw fail(error, status: status)
            }
        }
        do {
            let live = try await LiveCatalog.open(
                store: opened.store, photoFolder: opened.photoFolder, configuration: configuration, models: models)
            if live.photosExtractedAtOpen > 0 {
                logger.notice(
                    "photos stored without features for this daemon's feature-print model and settings were extracted again and stored",
                    metadata: ["photos": "\(live.photosExtractedAtOpen)", "features_key": "\(live.featuresKey)"])
            }
            return (live, location)
        } catch {
            switch error {
            case .engine(let error): throw fail(error, status: error.isMissingFile ? 66 : 65)
            case .store(let error): throw fail(error, status: 74)
            }
        }
    }

    /// Logs each step of building, loading or saving the matcher; a step that failed (an index the disk
    /// refused) as an error, since the next start then builds again.
    static func progressLog(_ logger: Logger) -> @Sendable (MatcherBuildProgress) -> Void {
        { step in
            let metadata: Logger.Metadata = [
                "step": "\(step.stage.rawValue)", "done": "\(step.done)", "total": "\(step.total)",
            ]
            if let problem = step.problem {
                logger.error("could not save the matcher index; the next start catches up from the last one saved, or builds the matcher", metadata: metadata.merging(
                    ["reason": "\(problem)"], uniquingKeysWith: { $1 }))
            } else {
                logger.info("building the matcher", metadata: metadata)
            }
        }
    }

    /// Logs each damaged keypoint slot once, as a warning naming the file, slot and reference, and what
    /// became of its reference.
    static func slotLog(_ logger: Logger) -> @Sendable (KeypointSlotEvent) -> Void {
        { event in
            switch event {
            case .damaged(let damage):
                logger.warning(
                    "a keypoint slot failed its checks; its reference is verified without keypoints until it is re-extracted from its photo",
                    metadata: ["file": "\(damage.path)", "slot": "\(damage.slot)", "reference": "\(damage.key)",
                               "reason": "\(damage.reason)"])
            case .repaired(let keys):
                logger.notice(
                    "references of damaged keypoint slots were re-extracted from their photos and are served whole",
                    metadata: ["references": "\(keys.joined(separator: ", "))"])
            case .writesRefused(let path, let count, let reason):
                logger.error(
                    "the keypoint slot file could not take every photo's keypoints; those photos are held whole in memory (free disk space and restart to write them)",
                    metadata: ["file": "\(path)", "photos": "\(count)", "reason": "\(reason)"])
            case .notRepaired(let key, let reason):
                logger.error(
                    "the reference of a damaged keypoint slot could not be re-extracted; delete the slot file and the matcher index to rebuild them",
                    metadata: ["reference": "\(key)", "reason": "\(reason)"])
            }
        }
    }

    /// Logs what following the store observed: each loss of the store once, and its return.
    static func log(_ event: LiveCatalog.FollowEvent, logger: Logger) {
        switch event {
        case .caughtUp(let from, let to):
            logger.debug("serving changes made by another daemon", metadata: ["from": "\(from)", "to": "\(to)"])
        case .storeUnavailable(let reason):
            logger.error(
                "the catalog store cannot be reached; answering queries from the catalog held, refusing edits (503) until it is back",
                metadata: ["reason": "\(reason)"])
        case .storeRestored:
            logger.notice("the catalog store is reachable again; edits are accepted, missed changes caught up")
        case .catchUpFailed(let reason):
            logger.warning("could not serve changes made by another daemon; retrying", metadata: ["reason": "\(reason)"])
        }
    }

    /// The sysexits-style status for a start-up failure.
    static func exitStatus(for code: GlimpseServerError.Code) -> Int32 {
        switch code {
        case .invalidConfiguration, .socketPathTooLong: 64
        case .alreadyRunning, .notASocket: 69
        case .socketSetupFailed: 74
        case .activationFailed: 78
        }
    }
}
