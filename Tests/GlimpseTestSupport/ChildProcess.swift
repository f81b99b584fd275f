public import Foundation
public import Glibc
import Synchronization

/// A child process the tests start with `posix_spawn` and reap themselves with `waitpid`: for children
/// that close the descriptors they inherit, as `systemd-socket-activate` does.
///
/// Foundation's `Process` learns that a child ended when a socket the child holds is closed, and then
/// waits for it with a blocking `waitpid` on its one monitor thread. A child that closes that socket and
/// runs on holds that thread for as long as it runs, and no other `Process` of the test process is seen
/// to end meanwhile. In a suite run beside two CPU hogs, a test blocking the shared executor's threads in
/// `waitUntilExit` for a `curl` then kept the socket-activation test from ever stopping its daemon: the
/// suite stood still (the monitor thread was found in `waitpid` on that daemon).
public final class ChildProcess: Sendable {
    /// Why a child could not be started.
    public struct SpawnFailure: Error, CustomStringConvertible {
        /// What failed, for the test's report.
        public let description: String
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    /// The read end of the pipe holding the child's standard output and standard error.
    public let output: FileHandle
    private let status = ExitStatus()
    private let ended = DispatchGroup()

    /// Starts `command` (an absolute path, then its arguments) in `directory` with `environment`, its
    /// standard input `/dev/null`, its output and errors into ``output``, and no other descriptor of
    /// this process (``addCloseFrom(_:to:)``).
    public init(_ command: [String], environment: [String: String], directory: String) throws(SpawnFailure) {
        // `env -C` changes the directory and then runs the command in the same process.
        let command = ["/usr/bin/env", "-C", directory] + command
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else {
            throw SpawnFailure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // Close-on-exec, so that no other child of this process keeps the pipe open (`pipe2` is not
        // imported; Foundation's children close what they inherit, and these children close all).
        for end in pipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        addCloseFrom(3, to: &actions)
        var argv = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        // The spawning thread's signal mask and ignored signals would be inherited (a thread of the
        // test process may block SIGTERM); the child starts with none blocked and every one default.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, &attributes, &argv, &envp)
        close(pipe[1])
        guard spawned == 0 else {
            close(pipe[0])
            throw SpawnFailure(description: "cannot run \(command[0]): \(String(cString: strerror(spawned)))")
        }
        processIdentifier = pid
        output = FileHandle(fileDescriptor: pipe[0], closeOnDealloc: true)
        ended.enter()
        Thread.detachNewThread { [status, ended, processIdentifier] in
            var raw: Int32 = 0
            while waitpid(processIdentifier, &raw, 0) < 0, errno == EINTR {}
            // Exit code, or 128 + the signal that ended it, as a shell reports it.
            let signal = raw & 0x7f
            status.value.withLock { $0 = signal == 0 ? (raw >> 8) & 0xff : 128 + signal }
            ended.leave()
        }
    }

    /// The exit status (128 + the signal for a child a signal ended), or `nil` while it runs.
    public var exitStatus: Int32? { status.value.withLock { $0 } }

    /// Waits until the child has ended and returns its exit status; after `timeout` (a guard against
    /// hanging) the child is killed and `nil` returned.
    public func waitForExit(timeout: Duration) async -> Int32? {
        let ended = self.ended
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let inTime = await offThread { ended.wait(timeout: .now() + seconds) == .success }
        guard inTime else {
            kill(processIdentifier, SIGKILL)
            await offThread { ended.wait() }
            return nil
        }
        return exitStatus
    }

    /// A child still running when its test drops it is killed (and then reaped by its waiting thread).
    deinit {
        if exitStatus == nil { kill(processIdentifier, SIGKILL) }
    }
}

/// A child's exit status, written once by the thread that reaps it.
private final class ExitStatus: Sendable {
    let value = Mutex<Int32?>(nil)
}
