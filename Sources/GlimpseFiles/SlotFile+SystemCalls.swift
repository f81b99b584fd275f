// The system calls of `SlotFile`: opening, sizing, reading, advising, allocating and flushing.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `SlotFile`'s system calls: reads and flushes retry on `EINTR`; opening, sizing and reading the header
/// throw a ``SlotFileError`` that names the file, reading a slot, allocating and flushing return the error
/// number.
enum SlotFileCalls {
    /// The call that makes a file at least `size` bytes long with its blocks allocated, returning 0 or an
    /// error number: ``allocate(_:size:)``, or a test's stand-in for a disk that fills.
    typealias Allocate = @Sendable (_ fd: Int32, _ size: Int) -> Int32

    /// Opens `path` for reading, or for reading and writing, refusing anything but a regular file.
    static func openDescriptor(_ path: String, writable: Bool) throws(SlotFileError) -> Int32 {
        let fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw .io(FileError(path: path, operation: writable ? .openForUpdate : .open, code: errno))
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            closeDescriptor(fd)
            throw .io(FileError(path: path, operation: .stat, code: code))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            closeDescriptor(fd)
            throw .notASlotFile(path: path)
        }
        return fd
    }

    /// Closes `fd`, ignoring the result: a slot file's writes are made durable by `commit`, never by closing.
    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    /// The open file's size in bytes.
    static func fileSize(_ fd: Int32, path: String) throws(SlotFileError) -> Int {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .io(FileError(path: path, operation: .stat, code: errno)) }
        return Int(status.st_size)
    }

    /// The file's first bytes, up to a header's worth (fewer when the file is shorter).
    static func readHeaderBytes(_ fd: Int32, path: String, size: Int) throws(SlotFileError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: min(size, SlotFileHeader.size))
        var done = 0
        while done < bytes.count {
            let got = bytes.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress.map { $0 + done }, raw.count - done, off_t(done))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .io(FileError(path: path, operation: .read, code: errno))
            }
            if got == 0 { break }
            done += got
        }
        return Array(bytes[..<done])
    }

    /// Reads up to `buffer.count` bytes at `offset` into `buffer`, retrying on `EINTR` and after short
    /// reads until the buffer is full or the file ends: the number of bytes read (fewer at the end of the
    /// file, as when another program truncated it) and 0, or the error number.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> (count: Int, code: Int32) {
        guard let base = buffer.baseAddress else { return (0, 0) }
        var done = 0
        while done < buffer.count {
            let got = pread(fd, base + done, buffer.count - done, off_t(offset + done))
            if got < 0 {
                if errno == EINTR { continue }
                return (done, errno)
            }
            if got == 0 { break }
            done += got
        }
        return (done, 0)
    }

    /// Tells the system that the file is read at random places (`POSIX_FADV_RANDOM`): a read brings in
    /// what it asks for and no read-ahead around it. Advice only: a refusal changes nothing but speed.
    static func expectRandomReads(_ fd: Int32) {
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_RANDOM))
    }

    /// Makes the file at least `size` bytes long with its blocks allocated; returns 0 or an error number.
    static func allocate(_ fd: Int32, size: Int) -> Int32 {
        posix_fallocate(fd, 0, off_t(size))
    }

    /// Flushes the file's data (and the metadata needed to read it) to disk; returns 0 or `errno`.
    static func flushData(_ fd: Int32) -> Int32 {
        var status: Int32
        repeat { status = fdatasync(fd) } while status != 0 && errno == EINTR
        return status == 0 ? 0 : errno
    }
}
