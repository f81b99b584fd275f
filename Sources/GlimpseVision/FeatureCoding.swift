import GlimpseFeaturePrint
public import GlimpseFiles

/// How one picture's features are written as bytes: the per-reference coding of the feature cache
/// (``FeatureCache``) and of the catalog store's feature column, kept in one place so both read
/// what the other writes.
///
/// Layout (little-endian): image width and height, keypoint count, the keypoints (x, y, scale, angle,
/// response as 32-bit floats, level as a 32-bit integer), the descriptors (four 64-bit words each),
/// the number of feature prints and their dimension, then the prints' values. A standalone blob
/// (``encode(_:)``) ends in the CRC-32 of the bytes before it.
public enum FeatureCoding {
    static let maxKeypoints = 100_000
    static let maxPrintDimension = 1 << 16
    static let maxPrints: UInt32 = 64

    /// The key features are stored under: the extraction settings and the feature printer's identity
    /// (empty without a printer). Features stored under another key were made otherwise and are not used.
    public static func key(configuration: VisionConfiguration, printIdentity: String?) -> String {
        configuration.extractionFingerprint + "|" + (printIdentity ?? "")
    }

    /// A standalone blob of `features`, checksummed.
    public static func encode(_ features: ImageFeatures) -> [UInt8] {
        var w = ByteWriter()
        append(features, to: &w)
        w.append(CRC32.checksum(w.bytes))
        return w.bytes
    }

    /// Decodes a blob of ``encode(_:)``.
    ///
    /// - Throws: ``VisionError/cacheCorrupt(path:reason:)`` naming `path` when the bytes are damaged.
    public static func decode(_ bytes: [UInt8], path: String = "<memory>") throws(VisionError) -> ImageFeatures {
        func corrupt(_ reason: String) -> VisionError { .cacheCorrupt(path: path, reason: reason) }
        guard bytes.count >= 4 else { throw corrupt("features are too short (\(bytes.count) bytes)") }
        return try withBytes(of: bytes) { (raw) throws(VisionError) in
            var tail = ByteReader(raw, offset: raw.count - 4)
            let computed = CRC32.checksum(bytes: UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 4)]))
            guard let stored = try? tail.read(UInt32.self), stored == computed else { throw corrupt("checksum mismatch") }
            var r = ByteReader(raw, offset: 0, end: raw.count - 4)
            let features = try read(&r, what: "features", corrupt: corrupt)
            guard r.remaining == 0 else { throw corrupt("\(r.remaining) unexpected bytes after the features") }
            return features
        }
    }

    /// Appends the coding of `features` to `w`.
    package static func append(_ f: ImageFeatures, to w: inout ByteWriter) {
        w.append(UInt32(f.width))
        w.append(UInt32(f.height))
        w.append(UInt32(f.count))
        for k in f.keypoints {
            w.append(k.x); w.append(k.y); w.append(k.scale)
            w.append(k.angle); w.append(k.response); w.append(k.level)
        }
        w.append(contentsOf: f.descriptorWords)
        w.append(UInt32(f.featurePrints.count))
        w.append(UInt32(f.featurePrints.first?.dimension ?? 0))
        for print in f.featurePrints { w.append(contentsOf: print.values) }
    }

    /// Reads one picture's features from `r`; `what` names them in errors (such as `reference 3`).
    package static func read(
        _ r: inout ByteReader<ByteReadError>, what: String, corrupt: (String) -> VisionError
    ) throws(VisionError) -> ImageFeatures {
        guard let width = try? r.read(UInt32.self), let height = try? r.read(UInt32.self),
              let kc = try? r.read(UInt32.self)
        else { throw corrupt("\(what) is truncated") }
        let k = Int(kc)
        guard k <= maxKeypoints, r.remaining >= k * (24 + 32) else {
            throw corrupt("\(what) claims \(k) keypoints, more than the file holds")
        }
        // Six 32-bit fields per keypoint, read in one copy.
        guard let fields = try? r.readArray(UInt32.self, count: 6 * k) else { throw corrupt("\(what) is truncated") }
        let keypoints = (0..<k).map { i in
            let o = 6 * i
            return Keypoint(x: Float(bitPattern: fields[o]), y: Float(bitPattern: fields[o + 1]),
                            scale: Float(bitPattern: fields[o + 2]), angle: Float(bitPattern: fields[o + 3]),
                            response: Float(bitPattern: fields[o + 4]), level: Int32(bitPattern: fields[o + 5]))
        }
        guard let words = try? r.readArray(UInt64.self, count: 4 * k) else { throw corrupt("\(what) is truncated") }
        guard let printCount = try? r.read(UInt32.self), let dimension = try? r.read(UInt32.self),
              printCount <= maxPrints, Int(dimension) <= maxPrintDimension,
              r.remaining >= 4 * Int(printCount) * Int(dimension)
        else { throw corrupt("\(what) has truncated feature prints") }
        var prints: [FeaturePrint] = []
        prints.reserveCapacity(Int(printCount))
        for _ in 0..<Int(printCount) {
            guard let values = try? r.readFloats(count: Int(dimension)) else { throw corrupt("\(what) is truncated") }
            prints.append(FeaturePrint(normalizing: values))
        }
        guard width > 0, height > 0 else { throw corrupt("\(what) has an empty image size") }
        return ImageFeatures(width: Int(width), height: Int(height), keypoints: keypoints,
                             descriptorWords: words, featurePrints: prints)
    }
}

extension EncodedFeatures {
    /// The stored coding of `features` (``FeatureCoding/encode(_:)``).
    public init(_ features: ImageFeatures) {
        self.init(bytes: FeatureCoding.encode(features))
    }

    /// The features these bytes code (``FeatureCoding/decode(_:path:)``).
    ///
    /// - Throws: ``VisionError/cacheCorrupt(path:reason:)`` naming `path` when the bytes are damaged.
    public func decoded(path: String = "<memory>") throws(VisionError) -> ImageFeatures {
        try FeatureCoding.decode(bytes, path: path)
    }
}
