// swift-tools-version: 6.1
//
// Glimpse: visual-intelligence style image lookup for Linux servers.
//
// The module graph follows the pipeline:
//
//   CLibPNG, CLibJPEG          system libraries (pkg-config)
//   CGlimpseCodecs             the only C that calls them; holds every setjmp
//   GlimpseBasics              Duration in milliseconds and seconds, the seeded random generator (SplitMix64),
//                              the one LatencySummary (nearest-rank percentiles)
//   GlimpseImage               read-only pixel buffers and the PNG/JPEG decoders
//   GlimpseFiles               crash-safe whole-file writes, checked reads, byte coding, CRC-32, FNV-1a
//   GlimpseIndex               nearest-neighbour indexes (exact flat scan, HNSW)
//   GlimpseVision              keypoints, binary descriptors, shortlist, geometric verification
//   CGlimpseVisionKernels      its hot loops in C: Hamming scans, LSH lookup, FAST-9, Harris, smoothing, moments (SIMD variants chosen at run time)
//   GlimpseLabels              scene labels from the labelled-reference model in Models/
//   CXNNPACK                   XNNPACK, Debian's libxnnpack-dev (system library, no pkg-config file)
//   CGlimpseFeaturePrint       the only C that calls it: builds and runs the feature-print network
//   GlimpseFeaturePrint        the learned feature print (EfficientNet-Lite0 embedding) of Models/
//   GlimpseIntents             the App Intents query vocabulary (entities, queries, union values)
//   GlimpseWire                the JSON the daemon sends and the client decodes, and how `glimpse query` prints it
//   GlimpseCatalog             places and collections, and the visual search IntentValueQuery
//   GlimpseStore               the live catalog's store: the CatalogStore protocol, edits, revisions, import/export
//   GlimpseStoreSQLite         that store on SQLite (GRDB): schema migrations, WAL, the writer's lock, photo folder
//   GlimpseStorePostgres       that store on PostgreSQL (postgres-nio): many writers, NOTIFY on change, photos in the database
//   GlimpseEngine              the one pipeline: catalog, matcher, models and decoding, loaded by one rule
//   CGlimpseSocket             peer credentials (SO_PEERCRED), socket activation and sd_notify for the daemon
//   GlimpseServer              the daemon: HTTP/1.1 over a Unix socket
//   GlimpseClient              the daemon's client (SwiftNIO, no Hummingbird)
//   GlimpseEvaluation          evaluation code: the `glimpse eval` figures, label evaluation, the paired bootstrap
//   GlimpseBatch               folder matching behind `glimpse match`
//   glimpse                    the command-line tool
//
// Benchmarks, all under Benchmarks/, none of them a library product (nor is GlimpseEvaluation):
//   Benchmarks/Sources/        this package's benchmark targets:
//     GlimpseBench               the benchmarks behind `glimpse bench` (per stage, over the socket, at scale)
//     GlimpseIndexBenchmark      the index benchmark: synthetic vectors, the memory-bandwidth floor
//     glimpse-decode-bench       decoding vs a plain C libjpeg/libpng loop (CDecodeReference)
//     glimpse-index-bench        the indexes vs the memory-bandwidth floor
//     glimpse-server-bench       socket vs in-process
//     glimpse-featureprint-bench the network alone (scripts/bench-featureprint.sh runs ONNX Runtime beside it;
//                                CAllocationCounter counts its heap allocations)
//     glimpse-store-bench        the catalog store: import, durable edit commits into a store of 10^4 places
//     glimpse-live-bench         a live catalog of 10^4 references under edits vs the same catalog loaded at start
//   Benchmarks/Package.swift   micro-benchmarks (ordo-one/benchmark), a separate package out of the default build
//   Benchmarks/results/        measured results, one file per study
import CompilerPluginSupport
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // Each file imports what it uses (SE-0444); imports are internal unless marked public (SE-0409).
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Glimpse",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "glimpse", targets: ["glimpse"]),
        .library(name: "GlimpseImage", targets: ["GlimpseImage"]),
        .library(name: "GlimpseFiles", targets: ["GlimpseFiles"]),
        .library(name: "GlimpseIndex", targets: ["GlimpseIndex"]),
        .library(name: "GlimpseVision", targets: ["GlimpseVision"]),
        .library(name: "GlimpseLabels", targets: ["GlimpseLabels"]),
        .library(name: "GlimpseFeaturePrint", targets: ["GlimpseFeaturePrint"]),
        // Apple's App Intents query layer and Visual Intelligence's descriptor, for Linux: code written
        // for iOS against these frameworks builds here unchanged (on Apple platforms the system's stand in).
        .library(name: "AppIntents", targets: ["AppIntents"]),
        .library(name: "VisualIntelligence", targets: ["VisualIntelligence", "CoreVideo"]),
        .library(name: "GlimpseIntents", targets: ["GlimpseIntents"]),
        .library(name: "GlimpseWire", targets: ["GlimpseWire"]),
        .library(name: "GlimpseCatalog", targets: ["GlimpseCatalog"]),
        .library(name: "GlimpseStore", targets: ["GlimpseStore"]),
        .library(name: "GlimpseStoreSQLite", targets: ["GlimpseStoreSQLite"]),
        .library(name: "GlimpseStorePostgres", targets: ["GlimpseStorePostgres"]),
        .library(name: "GlimpseEngine", targets: ["GlimpseEngine"]),
        .library(name: "GlimpseServer", targets: ["GlimpseServer"]),
        .library(name: "GlimpseClient", targets: ["GlimpseClient"]),
    ],
    dependencies: [
        // CLI parsing: the standard for Swift command-line tools.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Daemon (GlimpseServer): HTTP/1.1 over a Unix socket, start/stop, logs, metrics; SwiftNIO also carries GlimpseClient.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Batch and bench (GlimpseBatch): latency percentiles for `glimpse bench`.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // The catalog store on SQLite (GlimpseStoreSQLite), on the system's libsqlite3 (libsqlite3-dev).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The catalog store on PostgreSQL (GlimpseStorePostgres): the Swift server ecosystem's PostgreSQL client.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The @UnionValue and @ComputedProperty macros of AppIntents (AppIntentsMacros), and their tests.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        // `swift package generate-documentation`: the DocC catalogs of the libraries a user imports. A command
        // plugin only: nothing of it is built by `swift build` or linked into a product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: C
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .systemLibrary(
            name: "CLibJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]
        ),
        .target(
            name: "CGlimpseCodecs",
            dependencies: ["CLibPNG", "CLibJPEG"]
        ),
        // XNNPACK's subgraph API; its header needs pthreadpool.h (libpthreadpool-dev).
        .systemLibrary(
            name: "CXNNPACK",
            providers: [.apt(["libxnnpack-dev", "libpthreadpool-dev"])]
        ),
        .target(
            name: "CGlimpseFeaturePrint",
            dependencies: ["CXNNPACK"],
            // C code includes <xnnpack.h> directly, so the module map's link line does not apply.
            linkerSettings: [.linkedLibrary("XNNPACK")]
        ),

        // MARK: Libraries
        .target(
            name: "GlimpseBasics",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseImage",
            dependencies: ["CGlimpseCodecs", "GlimpseFiles"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseFiles",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseIndex",
            dependencies: ["GlimpseBasics", "GlimpseFiles"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CGlimpseVisionKernels"
        ),
        .target(
            name: "GlimpseVision",
            dependencies: ["GlimpseBasics", "GlimpseImage", "GlimpseFiles", "CGlimpseVisionKernels", "GlimpseFeaturePrint"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseLabels",
            dependencies: ["GlimpseImage", "GlimpseIndex", "GlimpseFiles", "GlimpseFeaturePrint"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseFeaturePrint",
            dependencies: ["GlimpseImage", "GlimpseFiles", "CGlimpseFeaturePrint"],
            swiftSettings: swiftSettings
        ),
        // Apple's query layer: entities, @Property, the four entity queries, EntityPropertyQuery's builders,
        // AppEnum, AppIntent/OpenIntent with @Parameter, @Dependency, IntentValueQuery, @UnionValue.
        .macro(
            name: "AppIntentsMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AppIntents",
            dependencies: ["AppIntentsMacros"],
            swiftSettings: swiftSettings
        ),
        // CVReadOnlyPixelBuffer: Glimpse's read-only PixelBuffer under Core Video's name.
        .target(
            name: "CoreVideo",
            dependencies: ["GlimpseImage"],
            swiftSettings: swiftSettings
        ),
        // SemanticContentDescriptor; re-exports AppIntents and CoreVideo.
        .target(
            name: "VisualIntelligence",
            dependencies: ["AppIntents", "CoreVideo"],
            swiftSettings: swiftSettings
        ),
        // What Apple does not define: the engine's property comparisons, their text syntax, text search.
        .target(
            name: "GlimpseIntents",
            dependencies: ["AppIntents", "VisualIntelligence"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseWire",
            dependencies: ["GlimpseBasics"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseCatalog",
            dependencies: [
                "AppIntents", "VisualIntelligence",
                "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseImage", "GlimpseIntents", "GlimpseLabels",
                "GlimpseVision", "GlimpseWire",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseStore",
            dependencies: ["GlimpseCatalog", "GlimpseFiles", "GlimpseVision", "GlimpseWire"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseStoreSQLite",
            dependencies: [
                "GlimpseCatalog", "GlimpseFiles", "GlimpseStore", "GlimpseVision", "GlimpseWire",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseStorePostgres",
            dependencies: [
                "GlimpseCatalog", "GlimpseStore", "GlimpseVision", "GlimpseWire",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseEngine",
            dependencies: [
                "GlimpseBasics", "GlimpseCatalog", "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseImage", "GlimpseIntents",
                "GlimpseLabels", "GlimpseStore", "GlimpseVision", "GlimpseWire",
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Daemon
        .target(name: "CGlimpseSocket"),
        .target(
            name: "GlimpseServer",
            dependencies: [
                "CGlimpseSocket", "GlimpseBasics", "GlimpseCatalog", "GlimpseEngine", "GlimpseFiles", "GlimpseImage",
                "GlimpseIntents", "GlimpseStore", "GlimpseWire",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        // The daemon's client: SwiftNIO and the wire types, nothing of the daemon.
        .target(
            name: "GlimpseClient",
            dependencies: [
                "GlimpseWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // MARK: Evaluation, batch matching and benchmarks
        .target(
            name: "GlimpseEvaluation",
            dependencies: ["GlimpseBasics", "GlimpseLabels", "GlimpseVision"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GlimpseBatch",
            dependencies: [
                "GlimpseBasics", "GlimpseCatalog", "GlimpseEngine", "GlimpseFiles", "GlimpseImage", "GlimpseIntents",
                "GlimpseLabels",
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Executable
        .executableTarget(
            name: "glimpse",
            dependencies: [
                "GlimpseBasics", "GlimpseBatch", "GlimpseBench", "GlimpseCatalog", "GlimpseClient", "GlimpseEngine", "GlimpseEvaluation",
                "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseImage", "GlimpseIndex", "GlimpseIntents", "GlimpseLabels", "GlimpseServer",
                "GlimpseStore", "GlimpseStorePostgres", "GlimpseStoreSQLite", "GlimpseVision", "GlimpseWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Benchmarks (Benchmarks/Sources): out of the library products
        // Plain C decode loops, the reference for glimpse-decode-bench.
        .target(
            name: "CDecodeReference",
            dependencies: ["CLibPNG", "CLibJPEG"],
            path: "Benchmarks/Sources/CDecodeReference"
        ),
        .target(
            name: "GlimpseIndexBenchmark",
            dependencies: ["GlimpseBasics", "GlimpseFiles", "GlimpseIndex"],
            path: "Benchmarks/Sources/GlimpseIndexBenchmark",
            swiftSettings: swiftSettings
        ),
        // The benchmarks behind `glimpse bench`: per stage in process, over the socket, the index and the
        // matcher as the catalog grows.
        .target(
            name: "GlimpseBench",
            dependencies: [
                "GlimpseBasics", "GlimpseBatch", "GlimpseCatalog", "GlimpseClient", "GlimpseEngine", "GlimpseImage",
                "GlimpseIndex", "GlimpseIndexBenchmark", "GlimpseIntents", "GlimpseVision",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Benchmarks/Sources/GlimpseBench",
            swiftSettings: swiftSettings
        ),
        // Release-mode decode benchmark: GlimpseImage against the C reference loop.
        .executableTarget(
            name: "glimpse-decode-bench",
            dependencies: ["GlimpseImage", "CGlimpseCodecs", "CDecodeReference"],
            path: "Benchmarks/Sources/glimpse-decode-bench",
            swiftSettings: swiftSettings
        ),

        // Release-mode index benchmark: exact scan against the memory-bandwidth floor, HNSW latency and recall.
        .executableTarget(
            name: "glimpse-index-bench",
            dependencies: ["GlimpseBasics", "GlimpseIndexBenchmark"],
            path: "Benchmarks/Sources/glimpse-index-bench",
            swiftSettings: swiftSettings
        ),

        // Release-mode feature-print benchmark: the network alone on one thread, one line of JSON,
        // with the number of heap allocations per run (CAllocationCounter wraps malloc; bench only).
        .target(name: "CAllocationCounter", path: "Benchmarks/Sources/CAllocationCounter"),
        .executableTarget(
            name: "glimpse-featureprint-bench",
            dependencies: ["GlimpseBasics", "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseImage",
                           "CAllocationCounter"],
            path: "Benchmarks/Sources/glimpse-featureprint-bench",
            swiftSettings: swiftSettings
        ),

        // Release benchmark of the daemon: socket round trips versus the same query in process.
        .executableTarget(
            name: "glimpse-server-bench",
            dependencies: [
                "GlimpseBasics", "GlimpseCatalog", "GlimpseClient", "GlimpseEngine", "GlimpseImage", "GlimpseIntents",
                "GlimpseServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Benchmarks/Sources/glimpse-server-bench",
            swiftSettings: swiftSettings
        ),

        // Release benchmark of the live catalog at 10^4 references: edits' visibility, query time vs loaded at start.
        .executableTarget(
            name: "glimpse-live-bench",
            dependencies: ["GlimpseBasics", "GlimpseCatalog", "GlimpseEngine", "GlimpseImage", "GlimpseIntents",
                           "GlimpseStore", "GlimpseStoreSQLite", "GlimpseVision", "GlimpseWire"],
            path: "Benchmarks/Sources/glimpse-live-bench",
            swiftSettings: swiftSettings
        ),
        // Release benchmark of the catalog store: import, and durable edit commits at 10^4 places.
        .executableTarget(
            name: "glimpse-store-bench",
            dependencies: ["GlimpseBasics", "GlimpseCatalog", "GlimpseFeaturePrint", "GlimpseStore", "GlimpseStoreSQLite",
                           "GlimpseVision", "GlimpseWire"],
            path: "Benchmarks/Sources/glimpse-store-bench",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        // What every test target shares: the repository's paths, temporary folders, the built `glimpse`,
        // pictures made in memory, the committed models.
        .target(
            name: "GlimpseTestSupport",
            dependencies: ["GlimpseImage", "GlimpseFeaturePrint"],
            path: "Tests/GlimpseTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "GlimpseImageTests", dependencies: ["GlimpseTestSupport", "GlimpseImage", "CGlimpseCodecs", "GlimpseFiles", "GlimpseBasics"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "GlimpseFilesTests", dependencies: ["GlimpseTestSupport", "GlimpseFiles"], swiftSettings: swiftSettings),
        .testTarget(name: "GlimpseIndexTests", dependencies: ["GlimpseTestSupport", "GlimpseIndex", "GlimpseFiles", "GlimpseBasics", "GlimpseIndexBenchmark"], swiftSettings: swiftSettings),
        .testTarget(name: "GlimpseVisionTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseVision", "GlimpseBasics", "GlimpseImage",
                                   "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseEvaluation"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "GlimpseLabelsTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseLabels", "GlimpseImage", "GlimpseFiles", "GlimpseFeaturePrint", "GlimpseEvaluation",
                                   "GlimpseIndex"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "GlimpseFeaturePrintTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseFeaturePrint", "GlimpseImage", "GlimpseFiles"],
                    exclude: ["Fixtures"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "GlimpseIntentsTests", dependencies: ["GlimpseIntents"], swiftSettings: swiftSettings),
        // App-Intents-style code as an iOS app writes it, compiled and run against AppIntents and VisualIntelligence.
        .testTarget(name: "AppIntentsTests", dependencies: ["AppIntents", "VisualIntelligence", "GlimpseImage"],
                    swiftSettings: swiftSettings),
        // The notes' forms with mutable `static var`s, which only the Swift 5 language mode accepts.
        .testTarget(name: "AppIntentsSeedStyleTests", dependencies: ["AppIntents"],
                    swiftSettings: swiftSettings + [.swiftLanguageMode(.v5)]),
        .testTarget(name: "AppIntentsMacrosTests",
                    dependencies: ["AppIntentsMacros",
                                   .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                                   .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                                   .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "GlimpseCatalogTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseBasics", "GlimpseCatalog", "GlimpseIntents", "GlimpseImage", "GlimpseVision", "GlimpseLabels",
                                   "GlimpseFeaturePrint", "GlimpseWire"],
                    exclude: ["Photos"],
                    swiftSettings: swiftSettings),
        // The store tests run on SQLite and on PostgreSQL (a real server: see TestPostgres in GlimpseTestSupport).
        .testTarget(name: "GlimpseStoreTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseStore", "GlimpseStoreSQLite", "GlimpseStorePostgres", "GlimpseCatalog",
                                   "GlimpseVision", "GlimpseFiles", "GlimpseWire", .product(name: "GRDB", package: "GRDB.swift"),
                                   .product(name: "PostgresNIO", package: "postgres-nio"),
                                   .product(name: "Logging", package: "swift-log")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "GlimpseServerTests",
                    dependencies: ["GlimpseTestSupport",
                        "GlimpseServer", "CGlimpseSocket", "GlimpseBasics", "GlimpseCatalog", "GlimpseClient", "GlimpseEngine",
                        "GlimpseFiles", "GlimpseIntents", "GlimpseImage", "GlimpseStore", "GlimpseStoreSQLite", "GlimpseWire",
                        .product(name: "NIOCore", package: "swift-nio"),
                        .product(name: "NIOEmbedded", package: "swift-nio"),
                        .product(name: "NIOHTTP1", package: "swift-nio"),
                        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                        .product(name: "HTTPTypes", package: "swift-http-types"),
                        .product(name: "Logging", package: "swift-log"),
                        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                    ],
                    swiftSettings: swiftSettings),
        .testTarget(name: "GlimpseBatchTests",
                    dependencies: ["GlimpseTestSupport",
                        "GlimpseBatch", "GlimpseBench", "GlimpseCatalog", "GlimpseClient", "GlimpseEngine", "GlimpseImage", "GlimpseVision",
                        "GlimpseServer",
                        .product(name: "Logging", package: "swift-log"),
                        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                    ],
                    swiftSettings: swiftSettings),
        .testTarget(name: "GlimpseEngineTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseCatalog", "GlimpseEngine", "GlimpseImage", "GlimpseIntents",
                                   "GlimpseStore", "GlimpseStoreSQLite", "GlimpseVision", "GlimpseWire",
                                   .product(name: "GRDB", package: "GRDB.swift")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "GlimpseCLITests", dependencies: ["GlimpseTestSupport", "GlimpseFiles", "GlimpseImage", "glimpse"], swiftSettings: swiftSettings),
        // The committed seeds of the fuzz targets in Fuzz/ still load (a format change needs new seeds).
        .testTarget(name: "GlimpseFuzzCorpusTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseCatalog", "GlimpseFeaturePrint", "GlimpseImage", "GlimpseIndex",
                                   "GlimpseLabels", "GlimpseVision", "GlimpseWire"],
                    swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
