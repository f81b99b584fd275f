// Feeds feature-cache files (GLVFEAT1) to FeatureCache.decode, as read at daemon start: as they are,
// then with the checksum repaired (FeatureCache.resealed) so the body parser is reached; both without
// and with a feature-print identity. References that load are put in a VisualMatcher (with short LSH
// tables), and the first is matched against them, as a query would be.
import FuzzSupport
@_spi(Fuzzing) import GlimpseVision

/// The key and identity the seeds were written with (scripts/fuzz-seeds.sh).
let cacheKey: UInt64 = 0x0123_4567_89AB_CDEF
let printIdentities: [String?] = [nil, "fuzz-printer"]
/// The matcher's settings: the defaults (which the cache's extraction settings must match), with two
/// short LSH tables, as choosing the key bits of the default six costs milliseconds even for a few
/// descriptors; the shortlist, the ratio test and RANSAC are as configured by default.
let matching = VisionConfiguration(lshTables: 2, lshBits: 4)

func check(_ bytes: [UInt8]) {
    for identity in printIdentities {
        let references: [(id: String, features: ImageFeatures)]
        do throws(VisionError) {
            references = try FeatureCache.decode(bytes, expectedKey: cacheKey, configuration: .default,
                                                 printIdentity: identity)
        } catch {
            FuzzCheck.require(!error.description.isEmpty, "an error without a description")
            continue
        }
        let matcher = VisualMatcher(references: references, configuration: matching)
        FuzzCheck.require(matcher.referenceCount == references.count, "references lost")
        guard let first = references.first else { continue }
        let report = matcher.match(features: first.features, limit: 3)
        for candidate in report.candidates {
            FuzzCheck.require(references.contains { $0.id == candidate.referenceID },
                              "candidate \(candidate.referenceID) is not a reference")
        }
    }
}

FuzzTarget.run { bytes in
    check(bytes)
    guard bytes.starts(with: Array("GLVFEAT1".utf8)) else { return }
    let resealed = FeatureCache.resealed(bytes)
    if resealed != bytes { check(resealed) }
}
