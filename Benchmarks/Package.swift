// swift-tools-version: 6.1
//
// Micro-benchmarks of Glimpse's hot kernels (decode, feature extraction, distances), with malloc
// counts. A separate package so the main build never compiles ordo-one/benchmark; see README.md.
// Sources/ beside it holds the root package's benchmark targets (its Package.swift names them by path).
import PackageDescription

let package = Package(
    name: "GlimpseBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "Glimpse", path: ".."),
    ],
    targets: [
        // The index benchmark's synthetic vectors, compiled from the root package's GlimpseIndexBenchmark folder
        // (not a library product; a target name must be unique across the package graph, hence another name).
        // GlimpseBasics, which it imports, comes with the GlimpseIndex product.
        .target(
            name: "IndexBenchmarkVectors",
            dependencies: [.product(name: "GlimpseIndex", package: "Glimpse")],
            path: "Sources/GlimpseIndexBenchmark",
            sources: ["SyntheticVectors.swift"]
        ),
        .executableTarget(
            name: "GlimpseKernels",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "IndexBenchmarkVectors",
                .product(name: "GlimpseImage", package: "Glimpse"),
                .product(name: "GlimpseIndex", package: "Glimpse"),
                .product(name: "GlimpseVision", package: "Glimpse"),
            ],
            path: "Benchmarks/GlimpseKernels",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
