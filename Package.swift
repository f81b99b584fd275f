// swift-tools-version: 6.1
//
// Glimpse: visual-intelligence style image lookup for Linux servers.
//
// The module graph follows the pipeline, from the C decoders to the daemon and the command-line tool:
// docs/architecture.md says what each target does, and docs/modules.svg draws the graph
// (scripts/module-graph.sh, from `swift package dump-package`; a test keeps it in step with this file).
// Benchmarks live under Benchmarks/ (their targets in Benchmarks/Sources/, none a library product; the
// micro-benchmarks in the separate Benchmarks/Package.swift; results in Benchmarks/results/).
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
        .library(name: "GlimpseTerminalText", targets: ["GlimpseTerminalText"]),
        .library(name: "GlimpseCatalog", targets: ["GlimpseCatalog"]),
        .library(name: "GlimpseStore", targets: ["GlimpseStore"]),
        .library(name: "GlimpseStoreSQLite", targets: ["GlimpseStoreSQLite"]),
        .library(name: "GlimpseStorePostgres", targets: ["GlimpseStorePostgres"]),
        .library(name: "GlimpseEngine", targets: ["GlimpseEngine"]),
        .library(name: "GlimpseServer", targets: ["GlimpseServer"]),
        .library(name: "GlimpseClient", targets: ["GlimpseClient"]),
    ],
    // The PostgreSQL store brings postgres-nio, swift-nio-ssl and swift-crypto, whose two copies of BoringSSL
    // are over half of a clean build's compile steps (814 of 1,583 for glimpse). It is on by default;
    // `--disable-default-traits` builds a glimpse without it (scripts/demo.sh does, for a quick first run).
    traits: [
        .trait(
            name: "PostgreSQL",
            description: "The catalog store on PostgreSQL: glimpse serve --store postgres://... (postgres-nio)."
        ),
        .default(enabledTraits: ["PostgreSQL"]),
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
        .target(name: "CGlimpseCodecs", dependencies: ["CLibPNG", "CLibJPEG"]),
        // XNNPACK's subgraph API; its header needs pthreadpool.h (libpthreadpool-dev).
        .systemLibrary(name: "CXNNPACK", providers: [.apt(["libxnnpack-dev", "libpthreadpool-dev"])]),
        .target(
            name: "CGlimpseFeaturePrint",
            dependencies: ["CXNNPACK"],
            // C code includes <xnnpack.h> directly, so the module map's link line does not apply.
            linkerSettings: [.linkedLibrary("XNNPACK")]
        ),

        // MARK: Libraries
        .target(name: "GlimpseBasics"),
        .target(name: "GlimpseImage", dependencies: ["CGlimpseCodecs", "GlimpseFiles"]),
        .target(name: "GlimpseFiles"),
        .target(name: "GlimpseIndex", dependencies: ["GlimpseBasics", "GlimpseFiles", "CGlimpseVisionKernels"]),
        .target(name: "CGlimpseVisionKernels"),
        .target(
            name: "GlimpseVision",
            dependencies: ["GlimpseBasics", "GlimpseImage", "GlimpseFiles", "GlimpseIndex", "CGlimpseVisionKernels", "GlimpseFeaturePrint"]
        ),
        .target(name: "GlimpseLabels", dependencies: ["GlimpseImage", "GlimpseIndex", "GlimpseFiles", "GlimpseFeaturePrint"]),
        .target(name: "GlimpseFeaturePrint", dependencies: ["GlimpseImage", "GlimpseFiles", "CGlimpseFeaturePrint"]),
        // Apple's query layer: entities, @Property, the four entity queries, EntityPropertyQuery's builders,
        // AppEnum, AppIntent/OpenIntent with @Parameter, @Dependency, IntentValueQuery, @UnionValue; the types
        // in AppIntentsCore, the macros in AppIntents.
        // The macros' expansions live in a plain library so that their tests depend on it, not on the
        // macro target: a test target that depends on a macro makes SwiftPM build the whole test bundle,
        // and every module it uses, a second time for the host (docs/app-intents.md, "Build cost").
        .target(
            name: "AppIntentsMacroDefinitions",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
            ]
        ),
        .macro(
            name: "AppIntentsMacros",
            dependencies: ["AppIntentsMacroDefinitions", .product(name: "SwiftCompilerPlugin", package: "swift-syntax")]
        ),
        // Everything of the query layer but the macros: no swift-syntax below it, so Glimpse's own modules,
        // the daemon and the CLI build on this core and never compile the macro plug-in.
        .target(name: "AppIntentsCore"),
        // The product users import: re-exports AppIntentsCore (and Foundation) and declares the macros.
        .target(name: "AppIntents", dependencies: ["AppIntentsCore", "AppIntentsMacros"]),
        // CVReadOnlyPixelBuffer: Glimpse's read-only PixelBuffer under Core Video's name.
        .target(name: "CoreVideo", dependencies: ["GlimpseImage"]),
        // SemanticContentDescriptor; re-exports AppIntentsCore and CoreVideo.
        .target(name: "VisualIntelligence", dependencies: ["AppIntentsCore", "CoreVideo"]),
        // What Apple does not define: the engine's property comparisons, their text syntax, text search.
        .target(name: "GlimpseIntents", dependencies: ["AppIntentsCore", "VisualIntelligence"]),
        .target(name: "GlimpseWire", dependencies: ["GlimpseBasics"]),
        // The CLI's text for people: answers as lines and as pretty JSON, whether computed in process or by the daemon.
        .target(name: "GlimpseTerminalText", dependencies: ["GlimpseWire"]),
        .target(
            name: "GlimpseCatalog",
            dependencies: [
                "AppIntentsCore", "VisualIntelligence",
                "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseImage", "GlimpseIntents", "GlimpseLabels",
                "GlimpseVision", "GlimpseWire",
            ]
        ),
        .target(name: "GlimpseStore", dependencies: ["GlimpseCatalog", "GlimpseFiles", "GlimpseWire"]),
        .target(
            name: "GlimpseStoreSQLite",
            dependencies: [
                "GlimpseCatalog", "GlimpseFiles", "GlimpseStore", "GlimpseWire",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "GlimpseStorePostgres",
            dependencies: [
                "GlimpseCatalog", "GlimpseFiles", "GlimpseStore", "GlimpseWire",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "GlimpseEngine",
            dependencies: [
                "GlimpseBasics", "GlimpseCatalog", "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseImage", "GlimpseIntents",
                "GlimpseLabels", "GlimpseStore", "GlimpseVision", "GlimpseWire",
            ]
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
            // The web console (GET /): plain HTML, CSS and JavaScript, compiled into the binary so that a
            // daemon copied anywhere serves it, with nothing fetched from elsewhere.
            resources: [
                .embedInCode("Console/index.html"), .embedInCode("Console/console.css"),
                .embedInCode("Console/console.js"), .embedInCode("Console/search.js"), .embedInCode("Console/catalog.js"),
                .embedInCode("Console/health.js"), .embedInCode("Console/start.js"),
            ]
        ),
        // The daemon's client: SwiftNIO and the wire types, nothing of the daemon.
        .target(
            name: "GlimpseClient",
            dependencies: [
                "GlimpseWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // MARK: Evaluation, batch matching and benchmarks
        .target(name: "GlimpseEvaluation", dependencies: ["GlimpseBasics", "GlimpseLabels", "GlimpseVision"]),
        .target(
            name: "GlimpseBatch",
            dependencies: [
                "GlimpseBasics", "GlimpseCatalog", "GlimpseEngine", "GlimpseFiles", "GlimpseImage", "GlimpseIntents",
                "GlimpseLabels",
            ]
        ),

        // MARK: Executable
        .executableTarget(
            name: "glimpse",
            dependencies: [
                "GlimpseBasics", "GlimpseBatch", "GlimpseBench", "GlimpseCatalog", "GlimpseClient", "GlimpseEngine", "GlimpseEvaluation",
                "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseImage", "GlimpseIndex", "GlimpseIntents", "GlimpseLabels", "GlimpseServer",
                "GlimpseStore", "GlimpseStoreSQLite", "GlimpseTerminalText", "GlimpseVision", "GlimpseWire",
                .target(name: "GlimpseStorePostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Example (Examples/): a landmark app's App Intents layer, as an iOS app writes it, answered by
        // Glimpse's engine; built in this package's own .build (scripts/example.sh runs it), never a product.
        .executableTarget(
            name: "Landmarks",
            dependencies: ["AppIntents", "VisualIntelligence", "GlimpseEngine", "GlimpseCatalog", "GlimpseImage"],
            path: "Examples/Landmarks/Sources/Landmarks"
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
            path: "Benchmarks/Sources/GlimpseIndexBenchmark"
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
            path: "Benchmarks/Sources/GlimpseBench"
        ),
        // Release-mode decode benchmark: GlimpseImage against the C reference loop.
        .executableTarget(
            name: "glimpse-decode-bench",
            dependencies: ["GlimpseImage", "CGlimpseCodecs", "CDecodeReference"],
            path: "Benchmarks/Sources/glimpse-decode-bench"
        ),

        // Release-mode index benchmark: exact scan against the memory-bandwidth floor, HNSW latency and recall.
        .executableTarget(
            name: "glimpse-index-bench",
            dependencies: ["GlimpseBasics", "GlimpseIndexBenchmark"],
            path: "Benchmarks/Sources/glimpse-index-bench"
        ),

        // Release-mode feature-print benchmark: the network alone on one thread, one line of JSON,
        // with the number of heap allocations per run (CAllocationCounter wraps malloc; bench only).
        .target(name: "CAllocationCounter", path: "Benchmarks/Sources/CAllocationCounter"),
        .executableTarget(
            name: "glimpse-featureprint-bench",
            dependencies: ["GlimpseBasics", "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseImage",
                           "CAllocationCounter"],
            path: "Benchmarks/Sources/glimpse-featureprint-bench"
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
            path: "Benchmarks/Sources/glimpse-server-bench"
        ),

        // Release benchmark of the live catalog at 10^4 references: edits' visibility, query time vs loaded at start.
        .executableTarget(
            name: "glimpse-live-bench",
            dependencies: ["GlimpseBasics", "GlimpseCatalog", "GlimpseEngine", "GlimpseFiles", "GlimpseImage", "GlimpseIntents",
                           "GlimpseStore", "GlimpseStoreSQLite", "GlimpseVision", "GlimpseWire"],
            path: "Benchmarks/Sources/glimpse-live-bench"
        ),
        // Release benchmark of the catalog store: import, and durable edit commits at 10^4 places.
        .executableTarget(
            name: "glimpse-store-bench",
            dependencies: ["GlimpseBasics", "GlimpseCatalog", "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseStore",
                           "GlimpseStoreSQLite", "GlimpseVision", "GlimpseWire"],
            path: "Benchmarks/Sources/glimpse-store-bench"
        ),

        // MARK: Tests
        // What every test target shares: the repository's paths, temporary folders, the built `glimpse`,
        // pictures made in memory, the committed models.
        .target(
            name: "GlimpseTestSupport",
            dependencies: ["GlimpseImage", "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseStore", "GlimpseStoreSQLite"],
            path: "Tests/GlimpseTestSupport"
        ),
        .testTarget(name: "GlimpseImageTests", dependencies: ["GlimpseTestSupport", "GlimpseImage", "CGlimpseCodecs", "GlimpseFiles", "GlimpseBasics"]),
        .testTarget(name: "GlimpseFilesTests", dependencies: ["GlimpseTestSupport", "GlimpseFiles"]),
        .testTarget(name: "GlimpseIndexTests", dependencies: ["GlimpseTestSupport", "GlimpseIndex", "GlimpseFiles", "GlimpseBasics", "GlimpseIndexBenchmark"]),
        .testTarget(name: "GlimpseVisionTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseVision", "GlimpseBasics", "GlimpseImage",
                                   "GlimpseFeaturePrint", "GlimpseFiles", "GlimpseEvaluation"]),
        .testTarget(name: "GlimpseLabelsTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseLabels", "GlimpseImage", "GlimpseFiles", "GlimpseFeaturePrint", "GlimpseEvaluation",
                                   "GlimpseIndex"]),
        .testTarget(name: "GlimpseFeaturePrintTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseFeaturePrint", "GlimpseImage", "GlimpseFiles"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "GlimpseIntentsTests", dependencies: ["GlimpseIntents"]),
        // App-Intents-style code as an iOS app writes it, compiled and run against AppIntents and VisualIntelligence.
        .testTarget(name: "AppIntentsTests", dependencies: ["AppIntents", "VisualIntelligence", "GlimpseImage"]),
        // The notes' forms with mutable `static var`s, which only the Swift 5 language mode accepts.
        .testTarget(name: "AppIntentsSeedStyleTests", dependencies: ["AppIntents"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "AppIntentsMacrosTests",
                    dependencies: ["AppIntentsMacroDefinitions",
                                   .product(name: "SwiftParser", package: "swift-syntax"),
                                   .product(name: "SwiftSyntax", package: "swift-syntax"),
                                   .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                                   .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                                   .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax")]),
        .testTarget(name: "GlimpseCatalogTests",
                    dependencies: ["GlimpseTestSupport", "AppIntentsCore", "GlimpseBasics", "GlimpseCatalog", "GlimpseIntents", "GlimpseImage", "GlimpseVision", "GlimpseLabels",
                                   "GlimpseFeaturePrint", "GlimpseTerminalText", "GlimpseWire"],
                    exclude: ["Photos"]),
        // The store tests run on SQLite and on PostgreSQL (a real server: see TestPostgres in GlimpseTestSupport).
        .testTarget(name: "GlimpseStoreTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseStore", "GlimpseStoreSQLite", "GlimpseStorePostgres", "GlimpseCatalog",
                                   "GlimpseVision", "GlimpseFiles", "GlimpseWire", .product(name: "GRDB", package: "GRDB.swift"),
                                   .product(name: "PostgresNIO", package: "postgres-nio"),
                                   .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "GlimpseServerTests",
                    dependencies: ["GlimpseTestSupport",
                        "GlimpseServer", "CGlimpseSocket", "GlimpseBasics", "GlimpseCatalog", "GlimpseClient", "GlimpseEngine",
                        "GlimpseFiles", "GlimpseIntents", "GlimpseImage", "GlimpseStore", "GlimpseStoreSQLite", "GlimpseTerminalText",
                        "GlimpseWire",
                        .product(name: "NIOCore", package: "swift-nio"),
                        .product(name: "NIOPosix", package: "swift-nio"),
                        .product(name: "NIOEmbedded", package: "swift-nio"),
                        .product(name: "NIOHTTP1", package: "swift-nio"),
                        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                        .product(name: "HTTPTypes", package: "swift-http-types"),
                        .product(name: "Logging", package: "swift-log"),
                        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                    ]),
        .testTarget(name: "GlimpseBatchTests",
                    dependencies: ["GlimpseTestSupport",
                        "GlimpseBatch", "GlimpseBench", "GlimpseCatalog", "GlimpseClient", "GlimpseEngine", "GlimpseImage", "GlimpseVision",
                        "GlimpseServer",
                        .product(name: "Logging", package: "swift-log"),
                        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                    ]),
        .testTarget(name: "GlimpseEngineTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseCatalog", "GlimpseEngine", "GlimpseFiles", "GlimpseImage",
                                   "GlimpseIntents", "GlimpseStore", "GlimpseStoreSQLite", "GlimpseVision", "GlimpseWire",
                                   .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "GlimpseCLITests", dependencies: ["GlimpseTestSupport", "GlimpseFiles", "GlimpseImage", "glimpse"]),
        // The committed seeds of the fuzz targets in Fuzz/ still load (a format change needs new seeds).
        .testTarget(name: "GlimpseFuzzCorpusTests",
                    dependencies: ["GlimpseTestSupport", "GlimpseCatalog", "GlimpseFeaturePrint", "GlimpseImage", "GlimpseIndex",
                                   "GlimpseLabels", "GlimpseVision", "GlimpseWire"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every Swift target builds with `swiftSettings` (the C targets ignore them).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
