import CGlimpseSocket
import Foundation
import GlimpseServer
import GlimpseTestSupport
import Synchronization
import Testing
#if canImport(CDispatch)
import CDispatch
#endif

/// A Unix socket of `type` bound to `path` (listening when `listening`); the caller closes it.
private func unixSocket(_ type: Int32, at path: String, listening: Bool) throws -> Int32 {
    let fd = socket(AF_UNIX, type, 0)
    guard fd >= 0 else { throw POSIXError(.EBADF) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, !listening || listen(fd, 8) == 0 else {
        close(fd)
        throw POSIXError(.EADDRINUSE)
    }
    return fd
}

/// Receives one datagram of at most 4 KiB from `fd`, waiting at most `seconds`; `nil` on timeout.
private func receiveDatagram(_ fd: Int32, seconds: Int) async -> String? {
    await offThread {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count < 0 ? nil : String(decoding: buffer.prefix(count), as: UTF8.self)
    }
}

/// The path of `systemd-socket-activate` (Debian's `systemd` package), if installed.
private let socketActivate: String? = ["/usr/bin/systemd-socket-activate", "/bin/systemd-socket-activate", "/usr/lib/systemd/systemd-socket-activate"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

/// `systemd-socket-activate -l SOCKET [OPTIONS...] glimpse serve ARGUMENTS` with `environment` (and
/// the test catalog's feature cache) passed to the daemon, its output (both streams) collected.
///
/// Started as a ``ChildProcess``, not a Foundation `Process`: `systemd-socket-activate` closes the
/// descriptors it inherits, among them the socket by which Foundation learns that a child ended, and
/// Foundation then waited for it on its one monitor thread for as long as it ran, seeing no other child
/// of the suite end.
private final class ActivatedDaemon: Sendable {
    private let child: ChildProcess
    private let early = Mutex(Data())

    init(socket: String, activateOptions: [String] = [], arguments: [String] = [], environment: [String: String] = [:]) throws {
        guard let socketActivate else { throw POSIXError(.ENOENT) }
        // systemd-socket-activate passes on only TERM, PATH and HOME, and what -E names.
        let variables = ["GLIMPSE_CACHE_DIR": catalogDirectory + "/cache"].merging(environment) { $1 }
        child = try ChildProcess(
            [socketActivate, "-l", socket] + variables.sorted { $0.key < $1.key }.flatMap { ["-E", "\($0.key)=\($0.value)"] }
                + activateOptions + [
                    try glimpseExecutable(), "serve", "--catalog", catalogDirectory,
                    "--model", repositoryRoot + "/Models/labels.glimpsemodel",
                ] + arguments,
            environment: ProcessInfo.processInfo.environment, directory: repositoryRoot)
    }

    /// The process id of `systemd-socket-activate`, which becomes the daemon's.
    var processIdentifier: pid_t { child.processIdentifier }

    /// Waits until `systemd-socket-activate` says it listens (it starts the daemon on the first
    /// connection or datagram); false if it exits first.
    func waitUntilBound() async -> Bool {
        let reader = child.output
        let (seen, ok) = await offThread { () -> (Data, Bool) in
            var seen = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { return (seen, false) }
                seen.append(chunk)
                if String(decoding: seen, as: UTF8.self).contains("Listening on") { return (seen, true) }
            }
        }
        early.withLock { $0 = seen }
        return ok
    }

    /// Waits for the process to exit (at most `timeout`, a guard against hanging, after which it is
    /// killed); its status and everything it printed.
    func waitForExit(timeout: Duration) async -> (status: Int32?, output: String) {
        guard let status = await child.waitForExit(timeout: timeout) else { return (nil, "") }
        let reader = child.output
        let rest = await offThread { reader.readDataToEndOfFile() }
        return (status, String(decoding: early.withLock { $0 } + rest, as: UTF8.self))
    }
}

/// Runs `curl -s -w '\n%{http_code}' --unix-socket SOCKET URL` and returns the status and the body.
private func curlReadingToEnd(_ socket: String, _ arguments: [String]) async -> (status: Int, body: String) {
    await offThread {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "--max-time", "240", "-w", "\n%{http_code}", "--unix-socket", socket] + arguments
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return (0, "curl did not start: \(error)") }
        // The answer is complete at the end of curl's output; its status is the last line.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
}

@Suite("socket activation", .serialized)
struct SocketActivationTests {
    @Test func noVariablesMeansTheDaemonBindsItsOwnSocket() throws {
        #expect(try ActivatedSocket.inspect(environment: [:], processID: getpid()) == nil)
    }

    @Test func variablesForAnotherProcessOrSeveralSocketsAreRefused() throws {
        let cases: [([String: String], String)] = [
            (["LISTEN_PID": "\(getpid() + 1)", "LISTEN_FDS": "1"], "passed to another process"),
            (["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "2"], "exactly one listening socket"),
            (["LISTEN_FDS": "1"], "LISTEN_PID is missing"),
            (["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "one"], "LISTEN_FDS is \"one\""),
        ]
        for (environment, message) in cases {
            let error = #expect(throws: GlimpseServerError.self) {
                try ActivatedSocket.inspect(environment: environment, processID: getpid())
            }
            #expect(error?.code == .activationFailed)
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        }
    }

    @Test func onlyAListeningUnixStreamSocketIsTaken() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "1"]
        let inspect = { (fd: Int32) throws(GlimpseServerError) in
            try ActivatedSocket.inspect(environment: environment, processID: getpid(), descriptor: fd)
        }

        let listening = try unixSocket(Int32(SOCK_STREAM.rawValue), at: directory.file("l.sock"), listening: true)
        defer { close(listening) }
        let taken = try inspect(listening)
        #expect(taken?.descriptor == listening)
        #expect(taken?.path == directory.file("l.sock"))

        let idle = try unixSocket(Int32(SOCK_STREAM.rawValue), at: directory.file("i.sock"), listening: false)
        defer { close(idle) }
        let datagram = try unixSocket(Int32(SOCK_DGRAM.rawValue), at: directory.file("d.sock"), listening: false)
        defer { close(datagram) }
        let tcp = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(tcp) }
        #expect(listen(tcp, 1) == 0)
        let file = open(directory.file("f"), O_RDWR | O_CREAT, 0o600)
        defer { close(file) }
        for (fd, message) in [
            (idle, "not listening"), (datagram, "not a stream socket"), (tcp, "not a Unix domain socket"),
            (file, "Socket operation on non-socket"), (9999, "Bad file descriptor"),
        ] {
            let error = #expect(throws: GlimpseServerError.self) { try inspect(fd) }
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        }
    }

    @Test func notificationsArriveAsDatagrams() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let receiver = try unixSocket(Int32(SOCK_DGRAM.rawValue), at: directory.file("notify"), listening: false)
        defer { close(receiver) }
        try ServiceNotifier(environment: ["NOTIFY_SOCKET": directory.file("notify")]).send("READY=1")
        #expect(await receiveDatagram(receiver, seconds: 30) == "READY=1")
        try ServiceNotifier(environment: [:]).send("READY=1")  // not started by a service manager: nothing
        let error = #expect(throws: GlimpseServerError.self) {
            try ServiceNotifier(socketPath: directory.file("absent")).send("READY=1")
        }
        #expect(error?.message.contains("NOTIFY_SOCKET") == true)
    }

    /// The acceptance check of the unit files in deploy/: `systemd-socket-activate -l SOCKET glimpse serve`
    /// answers queries on SOCKET, reports readiness and stopping, applies --allow-uid, and leaves
    /// the socket it did not create in place.
    @Test(.enabled(if: socketActivate != nil, "systemd-socket-activate is not installed (Debian package systemd; scripts/setup.sh installs it)"))
    func systemdSocketActivateStartsTheDaemonOnItsSocket() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("activated.sock")
        let notify = try unixSocket(Int32(SOCK_DGRAM.rawValue), at: directory.file("notify"), listening: false)
        defer { close(notify) }
        let daemon = try ActivatedDaemon(socket: socket, environment: ["NOTIFY_SOCKET": directory.file("notify")])
        #expect(await daemon.waitUntilBound())
        // systemd-socket-activate starts the daemon on the first connection, which waits in the
        // backlog while the catalog loads and is then answered.
        let health = await curlReadingToEnd(socket, ["http://glimpse/healthz"])
        #expect(health.status == 200, "\(health.body)")
        #expect(health.body.contains("\"status\":\"ok\""))
        let ready = await receiveDatagram(notify, seconds: 60)
        #expect(ready?.hasPrefix("READY=1\nSTATUS=listening on \(socket)") == true, "\(ready ?? "no READY=1")")
        let query = await curlReadingToEnd(socket, [
            "-H", "Content-Type: image/jpeg", "--data-binary", "@" + bundledCatalogDirectory + "/photos/" + samplePhotos[0],
            "http://glimpse/v1/query?limit=3",
        ])
        #expect(query.status == 200, "\(query.body.prefix(500))")
        #expect(query.body.contains("wooden-jetty-calm-lake"))
        #expect(!FileManager.default.fileExists(atPath: socket + ".lock"))

        kill(daemon.processIdentifier, SIGTERM)
        #expect(await receiveDatagram(notify, seconds: 60) == "STOPPING=1")
        let exit = await daemon.waitForExit(timeout: .seconds(60))
        #expect(exit.status == 0, "\(exit.output.suffix(2000))")
        #expect(exit.output.contains("listening on the socket passed by the service manager"))
        var info = stat()
        #expect(lstat(socket, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK, "the daemon removed a socket it did not create")

        // Peer checks apply on a socket passed by the service manager too.
        let other = directory.file("peers.sock")
        let guarded = try ActivatedDaemon(socket: other, arguments: ["--allow-uid", "\(getuid() &+ 4242)"])
        #expect(await guarded.waitUntilBound())
        let refused = await curlReadingToEnd(other, ["http://glimpse/healthz"])
        #expect(refused.status == 403)
        #expect(refused.body.contains("peer_not_allowed"))
        kill(guarded.processIdentifier, SIGTERM)
        #expect(await guarded.waitForExit(timeout: .seconds(60)).status == 0)
    }

    @Test(.enabled(if: socketActivate != nil, "systemd-socket-activate is not installed (Debian package systemd; scripts/setup.sh installs it)"))
    func anUnusableActivatedSocketStopsTheDaemonWithStatus78() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let datagram = try ActivatedDaemon(socket: directory.file("d.sock"), activateOptions: ["--datagram"])
        #expect(await datagram.waitUntilBound())
        #expect(CGlimpseSocket_notify(directory.file("d.sock"), "start") == 0)
        let exit = await datagram.waitForExit(timeout: .seconds(120))
        #expect(exit.status == 78)
        #expect(exit.output.contains("not a stream socket"), "\(exit.output)")

        let two = try ActivatedDaemon(socket: directory.file("a.sock"), activateOptions: ["-l", directory.file("b.sock")])
        #expect(await two.waitUntilBound())
        #expect(CGlimpseSocket_probe(directory.file("a.sock")) == 0)
        let twoExit = await two.waitForExit(timeout: .seconds(120))
        #expect(twoExit.status == 78)
        #expect(twoExit.output.contains("LISTEN_FDS is 2"), "\(twoExit.output)")

        let mismatch = try ActivatedDaemon(
            socket: directory.file("m.sock"), arguments: ["--socket", directory.file("other.sock")]
        )
        #expect(await mismatch.waitUntilBound())
        #expect(CGlimpseSocket_probe(directory.file("m.sock")) == 0)
        let mismatchExit = await mismatch.waitForExit(timeout: .seconds(120))
        #expect(mismatchExit.status == 64)
        #expect(mismatchExit.output.contains("drop --socket"), "\(mismatchExit.output)")
    }
}
