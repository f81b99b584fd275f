// swift-tools-version: 6.1
//
// Micro-benchmarks of Glimpse's hot kernels (decode, feature extraction, distances), with malloc
// counts. A separate package so the main build never compiles ordo-one/benchmark; see README.md.
import PackageDescription

let package = Package(
    name: "GlimpseBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "Glimpse", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "GlimpseKernels",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GlimpseIndexBenchmark", package: "Glimpse"),
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
