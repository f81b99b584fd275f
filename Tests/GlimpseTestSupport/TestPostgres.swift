import Foundation
import Synchronization

/// The PostgreSQL server the store tests use: the one `GLIMPSE_TEST_POSTGRES` names (a
/// `postgres://` URL, or the Unix-socket directory of a server whose superuser is `glimpse`, as
/// scripts/test.sh starts one), else a throwaway cluster this test process starts once with `initdb`
/// and `pg_ctl` (found on `PATH` or in `/usr/lib/postgresql/*/bin`) and stops when it exits.
public enum TestPostgres {
    /// A server to connect to.
    public struct Server: Sendable {
        /// The server's URL when `GLIMPSE_TEST_POSTGRES` gave one.
        public let url: String?
        /// The Unix-socket directory of a local server (`url` is then `nil`).
        public let socketDirectory: String?
        /// The superuser of a local server.
        public let user: String

        /// The URL of database `database` on this server, when it is known by a URL.
        public func url(database: String) -> String? {
            guard let url, var components = URLComponents(string: url) else { return nil }
            components.path = "/" + database
            return components.string
        }

        /// The libpq variables that reach database `database` on a local server (empty for a URL).
        public func environment(database: String) -> [String: String] {
            guard url == nil, let socketDirectory else { return [:] }
            return ["PGHOST": socketDirectory, "PGPORT": "5432", "PGUSER": user, "PGDATABASE": database, "PGSSLMODE": "disable"]
        }
    }

    /// Why no server could be had, as the failing test says it.
    public struct Unavailable: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    private static let shared = Mutex<Result<Server, Unavailable>?>(nil)
    private static let clusters = Mutex<[Cluster]>([])

    /// The server every store test of this process shares (started on first use).
    public static func server() throws(Unavailable) -> Server {
        let result = shared.withLock { cached in
            if let cached { return cached }
            let made = makeServer()
            cached = made
            return made
        }
        return try result.get()
    }

    private static func makeServer() -> Result<Server, Unavailable> {
        if let given = ProcessInfo.processInfo.environment["GLIMPSE_TEST_POSTGRES"], !given.isEmpty {
            return .success(given.hasPrefix("/")
                ? Server(url: nil, socketDirectory: given, user: "glimpse")
                : Server(url: given, socketDirectory: nil, user: ""))
        }
        do throws(Unavailable) {
            return .success(try startCluster().server)
        } catch {
            return .failure(error)
        }
    }

    /// Starts a throwaway cluster of this test's own (for tests that stop or restart the server);
    /// it is stopped and removed when the process exits, or by ``Cluster/stop()``.
    public static func startCluster() throws(Unavailable) -> Cluster {
        guard let bin = binaries() else {
            throw Unavailable(description: "the PostgreSQL store tests need a server: GLIMPSE_TEST_POSTGRES is unset "
                + "and initdb/pg_ctl are not on PATH or in /usr/lib/postgresql/*/bin; run scripts/test.sh, "
                + "which installs PostgreSQL and starts one")
        }
        let cluster = try Cluster(bin: bin)
        clusters.withLock { list in
            if list.isEmpty { atexit { TestPostgres.stopAll() } }
            list.append(cluster)
        }
        return cluster
    }

    private static func stopAll() {
        for cluster in clusters.withLock({ $0 }) { cluster.stop() }
    }

    /// The folder holding `initdb` and `pg_ctl`.
    static func binaries() -> String? {
        var folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        folders += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        return folders.first { folder in
            FileManager.default.isExecutableFile(atPath: folder + "/initdb")
                && FileManager.default.isExecutableFile(atPath: folder + "/pg_ctl")
        }
    }

    /// A PostgreSQL cluster in a temporary directory, listening only on a Unix socket there, with trust
    /// authentication and superuser `glimpse`. As root, it runs as `nobody` (initdb refuses root).
    public final class Cluster: Sendable {
        /// The cluster's directory: the socket is here, the data in `data/`.
        public let directory: String
        private let bin: String
        private let runAs: String?

        init(bin: String) throws(Unavailable) {
            self.bin = bin
            let folder: TemporaryDirectory
            do {
                folder = try TemporaryDirectory(removedOnRelease: false)
            } catch {
                throw Unavailable(description: "cannot make a folder for a PostgreSQL cluster: \(error)")
            }
            directory = folder.path
            runAs = getuid() == 0 ? "nobody" : nil
            if runAs != nil, let user = getpwnam("nobody") {
                chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
            }
            try run("initdb", ["-D", directory + "/data", "-U", "glimpse", "--auth=trust", "--no-locale", "-E", "UTF8",
                               "--no-sync"])
            try start()
        }

        /// The server reached through this cluster's socket.
        public var server: Server { Server(url: nil, socketDirectory: directory, user: "glimpse") }

        /// Starts the server (waiting until it accepts connections).
        public func start() throws(Unavailable) {
            try run("pg_ctl", ["-D", directory + "/data", "-l", directory + "/server.log", "-w", "-o",
                               "-c listen_addresses='' -k \(directory) -c fsync=off -c max_connections=200", "start"])
        }

        /// Stops the server fast (open connections are cut).
        public func stopServer() throws(Unavailable) {
            try run("pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "stop"])
        }

        /// Stops the server at once, as a crash would (`-m immediate`: no clean shutdown, connections cut).
        public func crashServer() throws(Unavailable) {
            try run("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        }

        /// Stops every process of the server (`SIGSTOP`): connections stay open but nothing is answered,
        /// as with a server that hangs or a network that drops packets. ``thawServer()`` resumes them.
        public func freezeServer() throws(Unavailable) {
            for pid in try serverProcesses() { kill(pid, SIGSTOP) }
        }

        /// Resumes the processes ``freezeServer()`` stopped.
        public func thawServer() throws(Unavailable) {
            for pid in try serverProcesses() { kill(pid, SIGCONT) }
        }

        /// The postmaster (the first line of `postmaster.pid`) and its children.
        private func serverProcesses() throws(Unavailable) -> [pid_t] {
            guard let text = try? String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8),
                  let line = text.split(separator: "\n").first, let postmaster = pid_t(line)
            else { throw Unavailable(description: "the server is not running (no postmaster.pid)") }
            var pids = [postmaster]
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")")
                else { continue }
                // After "pid (name) ": the state, then the parent's pid.
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 1, pid_t(fields[1]) == postmaster { pids.append(pid) }
            }
            return pids
        }

        /// Stops the server and removes the cluster.
        public func stop() {
            try? stopServer()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// Runs `tool` of the PostgreSQL binaries (as ``runAs`` when set), its output in `<directory>/<tool>.log`.
        /// posix_spawn and waitpid rather than Foundation's Process, whose wait does not always see
        /// pg_ctl end once the server it started runs on. The child gets none of the test process's other
        /// descriptors (``addCloseFrom(_:to:)``), so the server cannot hold those of other tests' children.
        private func run(_ tool: String, _ arguments: [String]) throws(Unavailable) {
            let command = (runAs.map { ["/usr/sbin/runuser", "-u", $0, "--"] } ?? []) + [bin + "/" + tool] + arguments
            let log = directory + "/\(tool).log"
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            addCloseFrom(3, to: &actions)
            var argv = command.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, command[0], &actions, nil, &argv, environ)
            guard spawned == 0 else {
                throw Unavailable(description: "cannot run \(command[0]): \(String(cString: strerror(spawned)))")
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            guard status == 0 else {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw Unavailable(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(text)")
            }
        }
    }
}
