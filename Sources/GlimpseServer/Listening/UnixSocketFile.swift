import CGlimpseSocket
public import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
// `stat` and its fields count as declared by whichever C module the compiler loads first (CDispatch or
// SwiftNIO's CNIOLinux, depending on the order files are compiled in); importing both keeps them visible.
import CDispatch
import CNIOLinux
#elseif canImport(Musl)
import Musl
#endif

/// The daemon's claim on its socket path, from before the bind until exit.
///
/// ``claim(path:directoryMode:logger:)`` makes the path safe to bind:
/// - the path must fit in `sun_path` (107 bytes on Linux);
/// - missing directories are created with `directoryMode` (default `0700`);
/// - an exclusive `flock` on `PATH.lock` is held for the daemon's lifetime, so two daemons
///   started at the same moment cannot both bind;
/// - a socket node already at the path is probed with `connect(2)`: when a listener answers, the
///   claim fails with `alreadyRunning`; only `ECONNREFUSED` (a stale node left by a crash) lets it
///   be unlinked (Dovecot's `net_listen_unix_unlink_stale` algorithm);
/// - a regular file, directory or anything else at the path is never removed: the claim fails with
///   `notASocket`.
///
/// After the server has bound, ``socketBound(mode:)`` sets the socket's mode and records its inode;
/// ``release()`` unlinks the socket (only if the node is still the one bound) and the lock file.
public final class UnixSocketFile: Sendable {
    /// The socket path.
    public let path: String
    private let lockPath: String
    private let lockDescriptor: Int32
    private let boundInode: LockedInode
    private let logger: Logger

    private init(path: String, lockPath: String, lockDescriptor: Int32, logger: Logger) {
        self.path = path
        self.lockPath = lockPath
        self.lockDescriptor = lockDescriptor
        self.boundInode = LockedInode()
        self.logger = logger
    }

    /// The longest socket path this platform accepts, in bytes.
    public static var maximumPathLength: Int { Int(CGlimpseSocket_max_path_length()) }

    /// Makes `path` ready for binding, or explains why it cannot be used.
    ///
    /// - Parameters:
    ///   - path: where the socket will be bound.
    ///   - directoryMode: the mode of directories created on the way to `path`.
    ///   - logger: receives a notice when a stale socket is replaced.
    /// - Returns: the claim, to be released at exit.
    /// - Throws: ``GlimpseServerError`` with code `socketPathTooLong`, `notASocket`, `alreadyRunning`
    ///   or `socketSetupFailed`.
    public static func claim(path: String, directoryMode: UInt32 = 0o700, logger: Logger) throws(GlimpseServerError)
        -> UnixSocketFile
    {
        let length = path.utf8.count
        guard length > 0 else {
            throw GlimpseServerError(code: .socketPathTooLong, message: "the socket path is empty; pass --socket PATH")
        }
        guard length <= maximumPathLength else {
            throw GlimpseServerError(
                code: .socketPathTooLong,
                message: "socket path is \(length) bytes but Unix sockets allow at most \(maximumPathLength): "
                    + "\(path); choose a shorter path (for example under $XDG_RUNTIME_DIR)"
            )
        }
        try createDirectories(for: path, mode: directoryMode)

        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw setupFailure("cannot open the lock file \(lockPath)", errno)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK {
                throw GlimpseServerError(
                    code: .alreadyRunning,
                    message: "another glimpse daemon is already running on \(path) (it holds \(lockPath)); "
                        + "stop it or choose another --socket path"
                )
            }
            throw setupFailure("cannot lock \(lockPath)", code)
        }
        let claim = UnixSocketFile(path: path, lockPath: lockPath, lockDescriptor: descriptor, logger: logger)
        do {
            try claim.clearStaleSocket()
        } catch {
            claim.releaseLock()
            throw error
        }
        return claim
    }

    /// Sets the bound socket's permission bits and remembers which node to remove at exit.
    ///
    /// - Parameter mode: permission bits such as `0o660`.
    /// - Throws: ``GlimpseServerError`` with code `socketSetupFailed` when `chmod` or `lstat` fails.
    public func socketBound(mode: UInt32) throws(GlimpseServerError) {
        guard chmod(path, mode_t(mode)) == 0 else {
            throw Self.setupFailure("cannot set mode \(String(mode, radix: 8)) on \(path)", errno)
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw Self.setupFailure("cannot stat \(path) after binding", errno)
        }
        boundInode.set(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Removes the socket this daemon bound and the lock file, then drops the lock.
    ///
    /// A node at the path that is not the one recorded by ``socketBound(mode:)`` is left alone.
    /// Calling this more than once is harmless.
    public func release() {
        guard let bound = boundInode.take() else {
            releaseLock()
            return
        }
        var info = stat()
        if lstat(path, &info) == 0, Self.isSocket(info), UInt64(info.st_dev) == bound.device,
            UInt64(info.st_ino) == bound.inode
        {
            if unlink(path) == 0 {
                logger.info("removed socket", metadata: ["path": "\(path)"])
            } else {
                logger.warning("could not remove socket", metadata: ["path": "\(path)", "errno": "\(errno)"])
            }
        }
        releaseLock()
    }

    // MARK: - Steps

    private func clearStaleSocket() throws(GlimpseServerError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw Self.setupFailure("cannot inspect \(path)", code)
        }
        guard Self.isSocket(info) else {
            let kind = (info.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "a file that is not a socket"
            throw GlimpseServerError(
                code: .notASocket,
                message: "\(path) is \(kind); it was left untouched. Remove it yourself or choose another --socket path"
            )
        }
        let probe = CGlimpseSocket_probe(path)
        switch probe {
        case 0:
            throw GlimpseServerError(
                code: .alreadyRunning,
                message: "another process is accepting connections on \(path); stop it or choose another --socket path"
            )
        case ECONNREFUSED:
            guard unlink(path) == 0 else {
                throw Self.setupFailure("cannot remove the stale socket \(path)", errno)
            }
            logger.notice("replaced a stale socket left by a previous run", metadata: ["path": "\(path)"])
        case ENOENT:
            return
        default:
            throw Self.setupFailure("cannot probe the existing socket \(path)", probe)
        }
    }

    private func releaseLock() {
        guard lockDescriptor >= 0 else { return }
        if boundInode.markLockReleased() {
            unlink(lockPath)
            close(lockDescriptor)
        }
    }

    private static func createDirectories(for path: String, mode: UInt32) throws(GlimpseServerError) {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !components.isEmpty else { return }
        components.removeLast()
        var current = path.hasPrefix("/") ? "" : "."
        for component in components {
            current += "/" + component
            if mkdir(current, mode_t(mode)) == 0 { continue }
            let code = errno
            guard code == EEXIST else {
                throw setupFailure("cannot create the socket directory \(current)", code)
            }
            var info = stat()
            guard stat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                throw setupFailure("\(current) exists but is not a directory", ENOTDIR)
            }
        }
    }

    private static func isSocket(_ info: stat) -> Bool {
        (info.st_mode & S_IFMT) == S_IFSOCK
    }

    private static func setupFailure(_ what: String, _ code: Int32) -> GlimpseServerError {
        GlimpseServerError(code: .socketSetupFailed, message: "\(what): \(String(cString: strerror(code)))")
    }
}

/// The inode recorded after binding and whether the lock is still held, behind a mutex.
private final class LockedInode: Sendable {
    private struct State {
        var bound: (device: UInt64, inode: UInt64)?
        var lockHeld = true
    }

    private let state = Mutex(State())

    func set(device: UInt64, inode: UInt64) {
        state.withLock { $0.bound = (device, inode) }
    }

    func take() -> (device: UInt64, inode: UInt64)? {
        state.withLock { state in
            defer { state.bound = nil }
            return state.bound
        }
    }

    /// Returns true exactly once: for the caller that should drop the lock.
    func markLockReleased() -> Bool {
        state.withLock { state in
            defer { state.lockHeld = false }
            return state.lockHeld
        }
    }
}
