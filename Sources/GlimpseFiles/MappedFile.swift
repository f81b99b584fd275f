// The package's only memory mapping: `mmap`, `munmap` and `madvise` on mappings are called here and nowhere else
// (heap memory has its one `madvise` in `HugePages.swift`).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only, shared memory mapping of the first ``count`` bytes of a file, so that a large file is
/// read where it lies, in the page cache, instead of into the heap. ``SlotFile`` no longer reads through
/// one: a file another program truncates under a mapping stops the process (below), so slots are read
/// with `pread`; use a mapping only for files no other program may shorten.
///
/// The mapped bytes are reached only through ``copy(offset:into:)`` and ``withBytes(offset:count:_:)``,
/// which check the range against ``count`` and whose pointer never outlives the call; the mapping is
/// removed when the last reference to the value goes, so a reader holding the value can never reach
/// unmapped memory. Another thread or process may change the bytes under a reader (the file's writer
/// uses `pwrite`, which the shared mapping sees): formats read through a mapping check a checksum of
/// what they copied.
///
/// The one thing a mapping cannot survive is the file shrinking below ``count`` while it is mapped (a
/// read of the lost pages stops the process with `SIGBUS`), and no check of the file's size before a read
/// closes that window.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`, and the mapping is only read.
public final class MappedFile: @unchecked Sendable {
    /// The mapped file's path (for messages).
    public let path: String
    /// How many bytes are mapped, from the file's start.
    public let count: Int
    /// The mapping's first byte; `nil` when ``count`` is 0 (nothing is mapped).
    private let base: UnsafeRawPointer?

    /// Maps the first `count` bytes of the open file `descriptor` (which must hold at least that many),
    /// read-only and shared. The descriptor may be closed afterwards; the mapping stays.
    ///
    /// - Throws: ``FileError`` with the operation ``FileError/Operation/map`` when the system refuses.
    public init(descriptor: Int32, count: Int, path: String) throws(FileError) {
        precondition(count >= 0, "a mapping cannot have a negative length")
        self.path = path
        self.count = count
        guard count > 0 else {
            base = nil
            return
        }
        guard let address = mmap(nil, count, PROT_READ, MAP_SHARED, descriptor, 0), address != MAP_FAILED else {
            throw FileError(path: path, operation: .map, code: errno)
        }
        base = UnsafeRawPointer(address)
    }

    /// Maps the whole regular file at `path`, read-only and shared.
    ///
    /// - Throws: ``FileError`` when the file cannot be opened or examined, is not a regular file, or
    ///   cannot be mapped.
    public convenience init(path: String) throws(FileError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileError(path: path, operation: .open, code: errno) }
        defer { _ = close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw FileError(path: path, operation: .stat, code: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            if status.st_mode & S_IFMT == S_IFDIR { throw FileError(path: path, operation: .open, code: EISDIR) }
            throw FileError(path: path, notRegular: "special file")
        }
        try self.init(descriptor: fd, count: Int(status.st_size), path: path)
    }

    deinit {
        if let base { _ = munmap(UnsafeMutableRawPointer(mutating: base), count) }
    }

    /// Whether `offset..<offset + length` lies within the mapping.
    @inline(__always)
    public func contains(offset: Int, count length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
    }

    /// Copies the mapped bytes at `offset..<offset + destination.count` into `destination`.
    ///
    /// - Returns: `false`, copying nothing, when the range does not lie within the mapping.
    @discardableResult
    public func copy(offset: Int, into destination: UnsafeMutableRawBufferPointer) -> Bool {
        guard contains(offset: offset, count: destination.count) else { return false }
        guard let base, let target = destination.baseAddress, destination.count > 0 else { return true }
        target.copyMemory(from: base + offset, byteCount: destination.count)
        return true
    }

    /// Runs `body` over the mapped bytes at `offset..<offset + count`, in place. The pointer must not
    /// escape `body`.
    ///
    /// - Returns: what `body` returns, or `nil`, without calling it, when the range does not lie within
    ///   the mapping.
    public func withBytes<Result, Failure: Error>(
        offset: Int, count length: Int, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard contains(offset: offset, count: length) else { return nil }
        guard let base, length > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try withExtendedLifetime(self) { () throws(Failure) -> Result in
            try body(UnsafeRawBufferPointer(start: base + offset, count: length))
        }
    }

    /// Tells the system that the mapped pages are not needed now (`MADV_DONTNEED`): they leave this
    /// process's resident memory but stay in the page cache, and a later read brings them back from it.
    /// For large files read a few kilobytes at a time, such as keypoint slots.
    public func dropResident() {
        guard let base else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), count, MADV_DONTNEED)
    }

    /// Tells the system that the mapping is read at random places, a few pages at a time (`MADV_RANDOM`):
    /// a page fault then reads the page it needs and no read-ahead around it. For a file much larger than
    /// what is read of it, such as keypoint slots at 10⁶ references, where each fault's read-ahead would
    /// otherwise bring in (and charge the reading thread for) pages of slots no query asked for.
    public func expectRandomReads() {
        guard let base else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), count, MADV_RANDOM)
    }

    /// Tells the system that the whole mapping will be read soon (`MADV_WILLNEED`), so it reads the file
    /// ahead in the background.
    public func willNeed() {
        guard let base else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), count, MADV_WILLNEED)
    }
}
