import Foundation
import GlimpseFiles

/// Feature prints of photos of no catalog place ("null prints"), made by one feature-print network:
/// what the matcher measures a catalog against to find where photos of nothing land
/// (``PrintCalibration``).
///
/// The file (`Models/featureprint.nulls`, beside the network it was made with; written by
/// `glimpse models null-prints`, see `scripts/featureprint/make-null-prints.sh`) is, little-endian:
/// the magic `GLNULLPR`, a `u32` version (1), the network's ``FeaturePrinting/featurePrintIdentity``
/// (`u32` length + UTF-8), a description of the photos (the same), `u32` dimension, `u32` count,
/// `count × dimension` floats (each print L2-normalised) and the CRC-32 of everything before it.
/// A file of another network, of another version, truncated or damaged is refused with a
/// ``NullPrintsError`` naming the problem.
public struct NullPrints: Sendable, Hashable {
    /// The identity of the feature-print network the prints were made with.
    public let identity: String
    /// Where the photos came from, for people (for instance "102 labelled + 317 calibration negatives").
    public let source: String
    /// Values per print.
    public let dimension: Int
    /// The prints, `count × dimension` values, row after row.
    public let values: [Float]

    /// The number of prints.
    public var count: Int { dimension > 0 ? values.count / dimension : 0 }

    /// Null prints from their parts; `values` is cut to whole prints.
    public init(identity: String, source: String, dimension: Int, values: [Float]) {
        self.identity = identity
        self.source = source
        self.dimension = max(0, dimension)
        let whole = dimension > 0 ? values.count / dimension * dimension : 0
        self.values = Array(values.prefix(whole))
    }

    /// The file's first bytes.
    static let magic = Array("GLNULLPR".utf8)
    /// The file format version this build writes and reads.
    static let version: UInt32 = 1
    /// The file name extension; the file sits beside its network as `<model name>.nulls`.
    public static let fileExtension = "nulls"

    /// Where the null prints of the network at `modelPath` are looked for: the model's path with its
    /// extension replaced by `.nulls` (`Models/featureprint.glimpsemodel` → `Models/featureprint.nulls`).
    public static func path(besideModel modelPath: String) -> String {
        let url = URL(fileURLWithPath: modelPath)
        return url.deletingPathExtension().appendingPathExtension(fileExtension).path
    }

    /// The file's bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 64 + identity.utf8.count + source.utf8.count + values.count * 4)
        for byte in Self.magic { writer.append(byte) }
        writer.append(Self.version)
        writer.append(string: identity)
        writer.append(string: source)
        writer.append(UInt32(clamping: dimension))
        writer.append(UInt32(clamping: count))
        writer.append(contentsOf: values)
        let checksum = CRC32.checksum(writer.bytes)
        writer.append(checksum)
        return writer.bytes
    }

    /// Writes the file atomically.
    ///
    /// - Throws: ``NullPrintsError/unwritable(path:reason:)``.
    public func write(to path: String) throws(NullPrintsError) {
        do throws(FileError) {
            try AtomicFile.replace(path, with: encoded())
        } catch {
            throw .unwritable(path: path, reason: error.description)
        }
    }

    /// Reads the null prints at `path`, which must have been made by the network named `identity`.
    ///
    /// - Throws: ``NullPrintsError`` when the file is missing, unreadable, damaged, truncated, of
    ///   another version or made by another network.
    public static func load(from path: String, expectingIdentity identity: String) throws(NullPrintsError) -> NullPrints {
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try AtomicFile.readAll(path, maxBytes: 1 << 30)
        } catch {
            if !FileManager.default.fileExists(atPath: path) { throw .missing(path: path) }
            throw .unreadable(path: path, reason: error.description)
        }
        return try decode(bytes, path: path, expectingIdentity: identity)
    }

    /// The null prints in `bytes` (`path` names them in errors).
    ///
    /// - Throws: ``NullPrintsError`` as ``load(from:expectingIdentity:)``.
    public static func decode(
        _ bytes: [UInt8], path: String = "(in memory)", expectingIdentity identity: String
    ) throws(NullPrintsError) -> NullPrints {
        guard bytes.count >= magic.count + 4, Array(bytes.prefix(magic.count)) == magic else {
            throw .notNullPrints(path: path)
        }
        let decoded = try withBytes(of: bytes) { (raw) throws(NullPrintsError) -> NullPrints in
            let failure = { (_: ByteReadError) in NullPrintsError.truncated(path: path) }
            var reader = ByteReader(raw, offset: magic.count, failure: failure)
            let version = try reader.read(UInt32.self, "version")
            guard version == Self.version else { throw .unsupportedVersion(path: path, version: Int(version)) }
            let made = try reader.readString(maxLength: 1 << 16, "identity")
            let source = try reader.readString(maxLength: 1 << 16, "source")
            let dimension = Int(try reader.read(UInt32.self, "dimension"))
            let count = Int(try reader.read(UInt32.self, "count"))
            guard dimension > 0, count > 0, dimension <= 1 << 16, count <= (1 << 26) / dimension else {
                throw .truncated(path: path)
            }
            // The prints and the checksum must be all that is left: fewer bytes is a cut file.
            guard reader.remaining == count * dimension * 4 + 4 else { throw .truncated(path: path) }
            let bodyEnd = reader.offset + count * dimension * 4
            let values = try reader.readFloats(count: count * dimension, "prints")
            let stored = try reader.read(UInt32.self, "checksum")
            guard CRC32.checksum(bytes: UnsafeRawBufferPointer(rebasing: raw[0..<bodyEnd])) == stored else {
                throw .damaged(path: path)
            }
            guard made == identity else { throw .otherNetwork(path: path, madeBy: made, expected: identity) }
            return NullPrints(identity: made, source: source, dimension: dimension, values: values)
        }
        return decoded
    }
}

/// Why null prints could not be read or written; each case says what to do.
public enum NullPrintsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file at `path`.
    case missing(path: String)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file does not start like a null-print file.
    case notNullPrints(path: String)
    /// The file was written by a format version this build does not read.
    case unsupportedVersion(path: String, version: Int)
    /// The file ends before its prints do.
    case truncated(path: String)
    /// The checksum does not match.
    case damaged(path: String)
    /// The prints were made by another feature-print network than the one loaded.
    case otherNetwork(path: String, madeBy: String, expected: String)
    /// The file could not be written.
    case unwritable(path: String, reason: String)

    /// The problem and what to do about it.
    public var description: String {
        let remake = "make it again for this network with scripts/featureprint/make-null-prints.sh"
        switch self {
        case .missing(let path): return "\(path): no null-print file; \(remake)"
        case .unreadable(let path, let reason): return "\(path): cannot read the null prints (\(reason))"
        case .notNullPrints(let path): return "\(path) is not a null-print file; \(remake)"
        case .unsupportedVersion(let path, let version):
            return "\(path): null-print format version \(version), this build reads \(NullPrints.version); \(remake)"
        case .truncated(let path): return "\(path): the null-print file is truncated; \(remake)"
        case .damaged(let path): return "\(path): the null-print file is damaged (checksum mismatch); \(remake)"
        case .otherNetwork(let path, let madeBy, let expected):
            return "\(path) holds null prints of another feature-print network (\(madeBy)), not of the one loaded "
                + "(\(expected)); \(remake), or name the matching model"
        case .unwritable(let path, let reason): return "\(path): cannot write the null prints (\(reason))"
        }
    }
}
