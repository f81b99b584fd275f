// Micro-benchmarks of Glimpse's hot kernels: JPEG/PNG decode, distance scans and nearest-neighbour
// search. Run with `swift package benchmark` from Benchmarks/ (see README.md).
import Benchmark
import Foundation
import GlimpseImage
import GlimpseIndex
import GlimpseVision
import IndexBenchmarkVectors

/// The sample catalog's photos, found from this file's location (Benchmarks/Benchmarks/GlimpseKernels/).
private let photosDirectory: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path + "/Images/photos"
}()

private func bytes(ofPhoto index: Int) -> [UInt8] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: photosDirectory)) ?? [])
        .filter { $0.hasSuffix(".jpg") }.sorted()
    guard !names.isEmpty, let data = FileManager.default.contents(atPath: photosDirectory + "/" + names[index % names.count])
    else { fatalError("no photos in \(photosDirectory); run the benchmarks from a Glimpse checkout") }
    return [UInt8](data)
}

private let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, .throughput]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: metrics, warmupIterations: 2, scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 1_000)

    // MARK: Decode

    let jpeg = bytes(ofPhoto: 0)
    Benchmark("decode JPEG 1024x640") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try ImageDecoder.decode(jpeg))
        }
    }

    Benchmark("decode JPEG 1024x640, scaled to 640") { benchmark in
        let options = DecodingOptions(maxDimension: 640)
        for _ in benchmark.scaledIterations {
            blackHole(try ImageDecoder.decode(jpeg, options: options))
        }
    }

    // MARK: Feature extraction

    Benchmark("extract features 640 px") { benchmark in
        let image = try ImageDecoder.decode(jpeg, options: DecodingOptions(maxDimension: 640)).pixelBuffer
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(FeatureExtractor.extract(from: image))
        }
    }

    // MARK: Distances and search

    for (count, dimension) in [(10_000, 128), (100_000, 64)] {
        let data = try? SyntheticVectors(dimension: dimension, distribution: .clustered(clusters: 128, spread: 0.35), seed: 7)
        let vectors = data?.rowMajor(count: count, stream: 1) ?? []
        let queries = data?.vectors(count: 64, stream: 2) ?? []
        for metric in [DistanceMetric.squaredEuclidean, .cosine] {
            Benchmark("flat search k=10, \(count)x\(dimension), \(metric)",
                      configuration: .init(scalingFactor: .one)) { benchmark in
                let index = try FlatIndex(dimension: dimension, metric: metric, rowMajor: vectors)
                benchmark.startMeasurement()
                for i in benchmark.scaledIterations {
                    blackHole(try index.search(queries[i % queries.count], k: 10))
                }
            }
        }
    }

    Benchmark("hnsw search k=10, 20000x128, cosine") { benchmark in
        let data = try SyntheticVectors(dimension: 128, distribution: .clustered(clusters: 128, spread: 0.35), seed: 7)
        let index = try HNSWIndex(dimension: 128, metric: .cosine, rowMajor: data.rowMajor(count: 20_000, stream: 1),
                                  parameters: HNSWParameters(efConstruction: 100, buildThreads: 2))
        let queries = data.vectors(count: 64, stream: 2)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            blackHole(try index.search(queries[i % queries.count], k: 10))
        }
    }

    Benchmark("reference distance 128-d (no SIMD)") { benchmark in
        let data = try SyntheticVectors(dimension: 128, distribution: .uniform, seed: 3)
        let pair = data.vectors(count: 2)
        for _ in benchmark.scaledIterations {
            blackHole(DistanceMetric.squaredEuclidean.referenceDistance(pair[0], pair[1]))
        }
    }
}
