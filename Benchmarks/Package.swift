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
        // The synthetic vectors of the index benchmark, from the same folder as the root package's target of
        // that name (which is not a library product). GlimpseBasics, which it imports, comes with GlimpseIndex.
        .target(
            name: "GlimpseIndexBenchmark",
            dependencies: [
                .product(name: "GlimpseFiles", package: "Glimpse"),
                .product(name: "GlimpseIndex", package: "Glimpse"),
            ],
            path: "Sources/GlimpseIndexBenchmark"
        ),
        .executableTarget(
            name: "GlimpseKernels",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "GlimpseIndexBenchmark",
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
