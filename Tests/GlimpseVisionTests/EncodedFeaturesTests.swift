import GlimpseFiles
import GlimpseVision
import Testing

/// The stored coding the catalog stores keep without reading it: made and read by GlimpseVision, its
/// framing checked by GlimpseFiles alone.
@Suite struct EncodedFeaturesTests {
    @Test func theStoredCodingIsFeatureCodingsBlobAndReadsBack() throws {
        for (_, features) in FeatureCacheTests.madeUp {
            let encoded = EncodedFeatures(features)
            #expect(encoded.bytes == FeatureCoding.encode(features))
            #expect(encoded.framingProblem == nil)
            #expect(try encoded.decoded() == features)
        }
    }

    @Test func damagedBytesAreFoundByTheFramingCheckAndByTheDecoder() throws {
        var damaged = EncodedFeatures(FeatureCacheTests.madeUp[0].features)
        damaged.bytes[damaged.bytes.count / 2] ^= 0x10
        #expect(damaged.framingProblem == "checksum mismatch")
        #expect(throws: VisionError.cacheCorrupt(path: "features of photo x", reason: "checksum mismatch")) {
            try damaged.decoded(path: "features of photo x")
        }
        let short = EncodedFeatures(bytes: [1, 2, 3])
        #expect(short.framingProblem == "features are too short (3 bytes)")
        #expect(throws: VisionError.cacheCorrupt(path: "<memory>", reason: "features are too short (3 bytes)")) {
            try short.decoded()
        }
    }
}
