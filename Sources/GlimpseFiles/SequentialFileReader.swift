// Reading a large file front to back straight into the caller's arrays: the read side of
// `AtomicFile.replace(_:writing:)`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file read front to back in pieces the caller chooses, each straight into the caller's memory,
/// with a running CRC-32 of what was read: how a file too large to hold twice (a matcher's index) is
/// loaded into its final arrays without a whole-file buffer.
///
/// It opens files under the rule of ``AtomicFile/read(_:maxBytes:peekBytes:mapError:check:)``: regular
/// files only, checked by path and by descriptor.
public final class SequentialFileReader {
    private let file: OpenFile
    /// The file's size in bytes when it was opened.
    public var size: Int { file.size }
    /// The bytes read so far.
    public private(set) var offset = 0
    /// The CRC-32 of every byte read so far.
    public private(set) var checksum = CRC32()

    /// Opens the regular file at `path`.
    /// - Throws: ``FileError`` when it cannot be opened or examined, or is not a regular file.
    public init(path: String) throws(FileError) {
        file = try OpenFile(path, maxBytes: .max)
    }

    deinit { file.close() }

    /// Fills `raw` with the next `raw.count` bytes of the file.
    /// - Throws: ``FileError`` with the operation ``FileError/Operation/read``; `EIO` when the file ends
    ///   first (it shrank after it was measured).
    public func read(into raw: UnsafeMutableRawBufferPointer) throws(FileError) {
        var done = 0
        while done < raw.count {
            let got = pread(file.fd, raw.baseAddress.map { $0 + done }, min(raw.count - done, AtomicFile.largestTransfer),
                            off_t(offset + done))
            if got < 0, errno == EINTR { continue }
            if got < 0 { throw FileError(path: file.path, operation: .read, code: errno) }
            if got == 0 { throw FileError(path: file.path, operation: .read, code: EIO) }
            done += got
        }
        checksum.update(bytes: UnsafeRawBufferPointer(raw))
        offset += raw.count
    }

    /// The next `count` values of type `T` as they lie in the file (the platform's byte order: formats
    /// read this way carry a byte-order mark).
    /// - Throws: as ``read(into:)``.
    public func readArray<T: BitwiseCopyable>(of _: T.Type, count: Int) throws(FileError) -> [T] {
        guard count > 0 else { return [] }
        var failure: FileError?
        let values = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(FileError) {
                // A large array (an index's descriptors or tables) is read at random once loaded.
                HugePages.adviseBeforeFilling(UnsafeMutableRawBufferPointer(buffer))
                try read(into: UnsafeMutableRawBufferPointer(buffer))
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return values
    }

    /// Moves past the next `count` bytes, checksumming them (padding between sections).
    /// - Throws: as ``read(into:)``.
    public func skip(_ count: Int) throws(FileError) {
        _ = try readArray(of: UInt8.self, count: count)
    }
}
