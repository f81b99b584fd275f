// swift-tools-version: 6.1
//
// libFuzzer targets for Glimpse's untrusted-input paths, one executable each (fuzz-<name>), plus
// glimpse-fuzz-seeds, which writes the seed corpora in Corpus/ with the project's own encoders.
// A separate package so the main build never carries fuzzing flags: scripts/fuzz.sh builds it with
// AddressSanitizer and SanitizerCoverage (scratch folder .build-fuzz) and runs one target on a copy of
// its corpus; scripts/fuzz-seeds.sh rewrites Corpus/.
//
// The targets call public API only, except three narrow hooks marked `@_spi(Fuzzing)`: signing an
// arbitrary cursor body (GlimpseCatalog), resealing a feature cache's checksum (GlimpseVision) and
// the daemon's per-connection handlers (GlimpseServer).
import PackageDescription

/// A fuzz target: an executable whose main.swift hands its test function to libFuzzer.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzSupport"] + dependencies, swiftSettings: swiftSettings)
}

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

func glimpse(_ product: String) -> Target.Dependency { .product(name: product, package: "Glimpse") }

let package = Package(
    name: "GlimpseFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Glimpse", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // LLVMFuzzerRunDriver, from libFuzzer's no-main runtime that scripts/fuzz.sh links.
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver", glimpse("GlimpseImage")], swiftSettings: swiftSettings),
        .target(
            name: "CatalogFuzzSupport",
            dependencies: ["FuzzSupport", glimpse("GlimpseCatalog"), glimpse("GlimpseIntents"), glimpse("GlimpseTerminalText"),
                           glimpse("GlimpseWire")],
            swiftSettings: swiftSettings
        ),

        fuzzTarget("jpeg", [glimpse("GlimpseImage")]),
        fuzzTarget("png", [glimpse("GlimpseImage")]),
        fuzzTarget("cursor", ["CatalogFuzzSupport", glimpse("GlimpseCatalog")]),
        fuzzTarget("catalog", ["CatalogFuzzSupport", glimpse("GlimpseCatalog"), glimpse("GlimpseIntents"), glimpse("GlimpseWire")]),
        fuzzTarget("entity-query", ["CatalogFuzzSupport", glimpse("GlimpseCatalog"), glimpse("GlimpseIntents"),
                                    glimpse("GlimpseWire")]),
        fuzzTarget("edit-json", [glimpse("GlimpseCatalog"), glimpse("GlimpseFiles"), glimpse("GlimpseStore"),
                                 glimpse("GlimpseStoreSQLite"), glimpse("GlimpseVision"), glimpse("GlimpseWire")]),
        fuzzTarget("label-model", [glimpse("GlimpseLabels"), glimpse("GlimpseFiles")]),
        fuzzTarget("feature-cache", [glimpse("GlimpseVision")]),
        fuzzTarget("index-file", [glimpse("GlimpseIndex"), glimpse("GlimpseFiles")]),
        fuzzTarget("featureprint-model", [glimpse("GlimpseFeaturePrint"), glimpse("GlimpseImage"), glimpse("GlimpseFiles")]),
        fuzzTarget("http", [
            glimpse("GlimpseServer"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),

        .executableTarget(
            name: "glimpse-fuzz-seeds",
            dependencies: [
                "FuzzSupport", "CatalogFuzzSupport",
                glimpse("GlimpseImage"), glimpse("GlimpseFiles"), glimpse("GlimpseIndex"), glimpse("GlimpseVision"),
                glimpse("GlimpseLabels"), glimpse("GlimpseFeaturePrint"), glimpse("GlimpseIntents"),
                glimpse("GlimpseCatalog"), glimpse("GlimpseWire"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
