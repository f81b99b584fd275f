#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock (`flock`) on a lock file, held until the value is released, so that two
/// processes never work on one resource at cross purposes. The holder writes its process id into the
/// file, so a refused process can say who holds it. The lock file itself is left in place.
public final class FileLock: Sendable {
    /// The lock file's path.
    public let path: String
    private let descriptor: Int32

    /// Why a lock was not taken.
    public enum Failure: Error, Sendable, Equatable {
        /// Another process holds the lock; `holder` is its process id, when the file names one.
        case held(path: String, holder: Int32?)
        /// The lock file could not be opened or locked.
        case failed(path: String, reason: String)
    }

    /// Takes the lock on `path` (creating the file), without waiting on a holder.
    ///
    /// - Throws: ``Failure/held(path:holder:)`` when another process holds it (confirmed over
    ///   ``releaseGrace``),
    ///   ``Failure/failed(path:reason:)`` when the file cannot be opened or locked.
    public static func acquire(_ path: String) throws(Failure) -> FileLock {
        try acquire(path, pause: sleepBetweenTries)
    }

    /// ``acquire(_:)`` with the grace's clock given: `pause` is called with ``retryStepMilliseconds``
    /// between tries, and the grace runs out after ``releaseGrace`` of such steps. Tests pass a `pause`
    /// that releases a holder or counts, so that nothing depends on how fast the machine is.
    static func acquire(_ path: String, pause: (_ milliseconds: Int) -> Void) throws(Failure) -> FileLock {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .failed(path: path, reason: String(cString: strerror(errno))) }
        let code = lockExclusively(fd, pause: pause)
        if code != 0 {
            close(fd)
            if code == EWOULDBLOCK { throw .held(path: path, holder: holder(of: path)) }
            throw .failed(path: path, reason: "cannot lock it: " + String(cString: strerror(code)))
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        return FileLock(path: path, descriptor: fd)
    }

    /// Takes the exclusive `flock` of the open file `fd` without waiting on a holder, retrying when a
    /// signal interrupts it.
    ///
    /// A refusal is confirmed over ``releaseGrace``: a lock its holder has just released stays held
    /// until every copy of the holder's descriptor is closed, and a child process the holder was
    /// spawning at that moment keeps a copy between its fork and its exec (where `O_CLOEXEC` closes it).
    ///
    /// - Returns: 0 when it is taken, else the `errno` (`EWOULDBLOCK` when another process holds it).
    public static func lockExclusively(_ fd: Int32) -> Int32 {
        lockExclusively(fd, pause: sleepBetweenTries)
    }

    /// ``lockExclusively(_:)`` with the grace's clock given (see ``acquire(_:pause:)``).
    static func lockExclusively(_ fd: Int32, pause: (_ milliseconds: Int) -> Void) -> Int32 {
        var waited = 0
        while true {
            var status: Int32 = 0
            repeat {
                status = flock(fd, LOCK_EX | LOCK_NB)
            } while status != 0 && errno == EINTR
            if status == 0 { return 0 }
            let code = errno
            guard code == EWOULDBLOCK, waited < releaseGraceMilliseconds else { return code }
            pause(retryStepMilliseconds)
            waited += retryStepMilliseconds
        }
    }

    /// How long a held lock is retried before it is reported held: 250 ms.
    public static let releaseGrace: Duration = .milliseconds(releaseGraceMilliseconds)
    private static let releaseGraceMilliseconds = 250
    /// The pause between two tries within the grace.
    static let retryStepMilliseconds = 10

    private static func sleepBetweenTries(_ milliseconds: Int) {
        usleep(UInt32(milliseconds) * 1000)
    }

    /// The process id written in the lock file at `path`, when it names one.
    public static func holder(of path: String) -> Int32? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let digits = buffer.prefix(count).prefix { $0 >= 0x30 && $0 <= 0x39 }
        return Int32(String(decoding: digits, as: UTF8.self))
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        // Forget the holder's pid while still holding the lock, then release it by closing.
        _ = ftruncate(descriptor, 0)
        close(descriptor)
    }
}
