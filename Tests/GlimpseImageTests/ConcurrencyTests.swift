import GlimpseImage
import Testing
import Foundation

@Suite("Concurrent decoding")
struct ConcurrencyTests {
    @Test("decodes running at once on several tasks give the same pixels as one at a time")
    func concurrentDecodesAgree() async throws {
        let urls = Array(Fixtures.photos.prefix(8))
        let options = DecodingOptions(maxDimension: 200)
        var sequential: [PixelBuffer] = []
        for url in urls { sequential.append(try ImageDecoder.decode(contentsOfFile: url.path, options: options).pixelBuffer) }
        let paths = urls.map(\.path)
        let concurrent = try await withThrowingTaskGroup(of: (Int, PixelBuffer).self) { group in
            for round in 0..<3 {
                for (index, path) in paths.enumerated() {
                    group.addTask {
                        let image = try ImageDecoder.decode(contentsOfFile: path, options: options)
                        return (index + round * paths.count, image.pixelBuffer)
                    }
                }
            }
            var results: [Int: PixelBuffer] = [:]
            for try await (key, buffer) in group { results[key] = buffer }
            return results
        }
        #expect(concurrent.count == paths.count * 3)
        for (key, buffer) in concurrent {
            #expect(buffer == sequential[key % paths.count], "\(paths[key % paths.count])")
        }
    }
}
