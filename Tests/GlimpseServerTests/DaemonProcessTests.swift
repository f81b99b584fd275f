import CGlimpseSocket
import Foundation
import GlimpseClient
import GlimpseServer
import GlimpseTestSupport
import Synchronization
import Testing
import GlimpseWire
import NIOCore
import NIOHTTP1

/// The environment of `glimpse` processes: this one's, with the feature cache kept beside the test
/// catalog (a temporary folder) rather than in the user's cache folder.
let testEnvironment: [String: String] = ProcessInfo.processInfo.environment
    .merging(["GLIMPSE_CACHE_DIR": catalogDirectory + "/cache", "XDG_DATA_HOME": catalogDirectory + "/data"]) { $1 }

/// A `glimpse serve` process (also used by the soak test).
final class ServeProcess: @unchecked Sendable {
    // @unchecked: `process` and the pipes are only touched from the test's own task.
    let process = Process()
    private let errors = Pipe()

    /// The daemon's process id (valid once started).
    var processIdentifier: pid_t { process.processIdentifier }

    /// Starts `glimpse serve` on `socket`, serving `store` (default: a store beside the socket, filled from
    /// the test catalog on first start).
    ///
    /// With `keypointsOnly`, the daemon runs without the feature print and the label model (it starts
    /// in a folder without `Models/`), for tests that restart it many times.
    /// `catalog` is the folder a new store is filled from; `environment` is added to the test environment.
    init(
        socket: String, store: String? = nil, keypointsOnly: Bool = false, extra: [String] = [],
        catalog: String = catalogDirectory, environment: [String: String] = [:]
    ) throws {
        process.executableURL = URL(fileURLWithPath: try glimpseExecutable())
        process.arguments = [
            "serve", "--socket", socket, "--catalog", catalog,
            "--store", store ?? ((socket as NSString).deletingLastPathComponent + "/catalog.sqlite"),
        ] + (keypointsOnly ? ["--no-featureprint"] : ["--model", repositoryRoot + "/Models/labels.glimpsemodel"]) + extra
        process.currentDirectoryURL = URL(
            fileURLWithPath: keypointsOnly ? (socket as NSString).deletingLastPathComponent : repositoryRoot)
        process.environment = testEnvironment.merging(environment) { $1 }
        process.standardError = errors
        process.standardOutput = errors
        try process.run()
    }

    /// A daemon a failed test left running is stopped, and its exit observed, rather than left behind.
    deinit {
        guard process.processIdentifier != 0 else { return }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Waits until a connection to `socket` succeeds, or the process exits, or `timeout` (a guard
    /// against hanging only) passes.
    /// Under a sanitizer the debug daemon loads its catalog several times slower, so it gets longer.
    func waitUntilListening(
        on socket: String, timeout: Duration = activeSanitizer == nil ? .seconds(240) : .seconds(900)
    ) async -> Bool {
        let settled = await eventually(every: .milliseconds(100), upTo: timeout) {
            !self.process.isRunning || CGlimpseSocket_probe(socket) == 0
        }
        return settled && process.isRunning
    }

    /// Why ``waitUntilListening(on:timeout:)`` gave up: the exit status and output of a daemon that
    /// exited, or that it is still running.
    func startFailure() -> String {
        guard !process.isRunning else { return "the daemon is running but not listening" }
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return "the daemon exited with status \(process.terminationStatus): \(output.suffix(2000))"
    }

    /// Waits for the process to exit; returns its status and everything it printed.
    func waitForExit(timeout: Duration) async -> (status: Int32?, output: String) {
        guard await eventually(every: .milliseconds(50), upTo: timeout, { !self.process.isRunning }) else {
            process.interrupt()
            return (nil, "")
        }
        // Returns at once; it lets Foundation observe the exit, which is what frees the Process (and its
        // pipes) on Linux: one only ever polled through isRunning stays allocated (LeakSanitizer says so).
        process.waitUntilExit()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// A moment marked by one task and read by others (when SIGTERM was sent, when a connection opened).
private final class Moment: Sendable {
    private let instant = Mutex<ContinuousClock.Instant?>(nil)
    var value: ContinuousClock.Instant? { instant.withLock { $0 } }
    func mark() { instant.withLock { $0 = .now } }
}

/// Runs `glimpse ARGUMENTS` to completion; returns its status and standard output.
private func runGlimpse(_ arguments: [String]) async -> (status: Int32, output: String) {
    await offThread {
        let process = Process()
        guard let executable = try? glimpseExecutable() else { return (-1, "") }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
        process.environment = testEnvironment
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return (-1, "") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

@Suite("glimpse serve process", .serialized)
struct DaemonProcessTests {
    @Test func sigtermDuringLoadFinishesInFlightRequestsRemovesTheSocketAndExitsZero() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("g.sock")
        // A generous grace period: debug builds on a busy machine answer slowly, and this test is
        // about finishing in-flight work, not about the cut-off.
        // A long head deadline too: a client in this (busy) test process may take seconds between
        // connecting and writing, and this test is about shutdown, not slow clients.
        let daemon = try ServeProcess(socket: socket, extra: ["--shutdown-grace", "60", "--header-timeout", "120"])
        #expect(await daemon.waitUntilListening(on: socket), "\(daemon.startFailure())")
        let client = GlimpseClient(socketPath: socket)
        let picture = try photoBytes(samplePhotos[0])
        let answeredBy = (0..<8).map { _ in SharedCount() }
        let signalled = Moment()
        // The clients' tasks run on threads of their own: on the suite's shared executor, held by its
        // computing tests, they were not answered once in 120 s beside two CPU hogs.
        let clients = DedicatedExecutor(label: "glimpse.test.sigterm-clients")

        // Eight clients query in a loop; SIGTERM arrives once answers flow, while they are busy.
        let outcomes = await withTaskGroup(of: (answered: Int, failedMidRequest: Int, why: [String]).self) { group in
            for answeredHere in answeredBy {
                group.addTask(executorPreference: clients) {
                    var answered = 0
                    var failed = 0
                    var why: [String] = []
                    while true {
                        // A request whose connection was open well before SIGTERM was in flight when it
                        // arrived and must be answered: the daemon keeps a connection that has not yet sent
                        // its request open for it. One connected around the signal may still be in the
                        // listen backlog when the listener closes, which resets it (HTTP clients retry).
                        // The margin covers a saturated 2-core machine accepting late.
                        let connected = Moment()
                        let inFlightAtSignal = {
                            guard let signal = signalled.value else { return true }
                            guard let at = connected.value else { return false }
                            return at < signal - .seconds(1)
                        }
                        do {
                            let status = try await client.withConnection { connection -> Int in
                                connected.mark()
                                return try await connection.send(
                                    method: .POST, target: "/v1/query?limit=3", body: .init(bytes: picture)
                                ).status
                            }
                            if status == 200 {
                                answered += 1
                                answeredHere.increment()
                            } else {
                                failed += 1
                                why.append("status \(status)\(inFlightAtSignal() ? "" : " (began at the signal)")")
                            }
                        } catch GlimpseClientError.cannotConnect {
                            return (answered, failed, why)  // the daemon stopped accepting: done
                        } catch {
                            if inFlightAtSignal() {  // an in-flight request was not answered
                                failed += 1
                                why.append("\(error)")
                            }
                            return (answered, failed, why)
                        }
                    }
                }
            }
            // Signal once every client has been answered twice: each is in its loop, with a request in
            // flight on a connection it opened before (a state reached, not a time waited).
            _ = await eventually(every: .milliseconds(50), upTo: .seconds(120)) {
                answeredBy.allSatisfy { $0.value >= 2 }
            }
            signalled.mark()
            kill(daemon.process.processIdentifier, SIGTERM)
            var all: [(Int, Int, [String])] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let exit = await daemon.waitForExit(timeout: .seconds(70))
        #expect(exit.status == 0)
        #expect(outcomes.reduce(0) { $0 + $1.0 } > 0)
        #expect(outcomes.allSatisfy { $0.1 == 0 },
                "every request in flight when SIGTERM arrived was answered with 200: \(outcomes.flatMap(\.2))")
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(exit.output.contains("shutting down"))
        #expect(exit.output.contains("stopped"))
    }

    @Test func secondDaemonOnALiveSocketExits69AndTheFirstKeepsServing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("g.sock")
        let first = try ServeProcess(socket: socket)
        #expect(await first.waitUntilListening(on: socket), "\(first.startFailure())")
        let second = try ServeProcess(socket: socket)
        let exit = await second.waitForExit(timeout: .seconds(120))
        #expect(exit.status == 69)
        #expect(exit.output.contains("already running"))
        let health = try await GlimpseClient(socketPath: socket).withConnection { try await $0.health() }
        #expect(health.status == "ok")

        // `glimpse query --socket` prints what the in-process `glimpse query` prints (but for the
        // cursor, which each signs with its own key, and the snapshot id: the daemon serves a store,
        // whose snapshots are named by its id and sequence, the in-process query the folder).
        let photo = bundledCatalogDirectory + "/photos/" + samplePhotos[2]
        let model = repositoryRoot + "/Models/labels.glimpsemodel"
        // Two of the place and the collections that hold it, so that a cursor to the rest is printed.
        let local = await runGlimpse(["query", photo, "--catalog", catalogDirectory, "--label-model", model, "--limit", "2"])
        let remote = await runGlimpse(["query", photo, "--socket", socket, "--limit", "2"])
        #expect(local.status == 0)
        #expect(remote.status == 0)
        let withoutCursor = { (text: String) in
            text.split(separator: "\n").filter { !$0.hasPrefix("more: ") }.map { line in
                line.hasPrefix("snapshot ") ? "snapshot" + (line.split(separator: ":", maxSplits: 1).last ?? "") : line
            }
        }
        #expect(withoutCursor(remote.output) == withoutCursor(local.output))
        #expect(withoutCursor(local.output).count >= 3)
        #expect(remote.output.contains("more: glimpse query --socket \(socket) --cursor "))

        kill(first.process.processIdentifier, SIGINT)
        #expect(await first.waitForExit(timeout: .seconds(30)).status == 0)
    }

    @Test func staleSocketIsReplacedAndARegularFileIsKept() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A socket node nobody listens on, as a crash leaves it.
        let stale = directory.file("stale.sock")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(stale.utf8) + [0]) }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        let daemon = try ServeProcess(socket: stale)
        #expect(await daemon.waitUntilListening(on: stale), "\(daemon.startFailure())")
        kill(daemon.process.processIdentifier, SIGTERM)
        #expect(await daemon.waitForExit(timeout: .seconds(30)).status == 0)

        let file = directory.file("file.sock")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: file))
        let refused = try ServeProcess(socket: file)
        let exit = await refused.waitForExit(timeout: .seconds(120))
        #expect(exit.status == 69)
        #expect(exit.output.contains("not a socket"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep")

        let long = directory.path + "/" + String(repeating: "x", count: 120)
        let tooLong = try ServeProcess(socket: long)
        let longExit = await tooLong.waitForExit(timeout: .seconds(120))
        #expect(longExit.status == 64)
        #expect(longExit.output.contains("at most 107"))
    }

    @Test func aFolderDaemonSavesItsMatcherIndexLogsTheBuildAndTheNextStartLoadsIt() async throws {
        let folder = try TemporaryDirectory()
        let socket = folder.file("g.sock")
        let index = folder.file("matcher.index")
        let photo = bundledCatalogDirectory + "/photos/" + samplePhotos[0]
        var answers: [QueryResponseJSON] = []
        for start in 0..<2 {
            let daemon = try ServeProcess(
                socket: socket, keypointsOnly: true, extra: ["--no-store", "--read-only", "--matcher-index", index])
            #expect(await daemon.waitUntilListening(on: socket), "\(daemon.startFailure())")
            let answer = try #require(await curl(socket, [
                "-H", "Content-Type: image/jpeg", "--data-binary", "@" + photo, "http://glimpse/v1/query?limit=3",
            ]))
            #expect(answer.status == 200)
            answers.append(try JSONDecoder().decode(QueryResponseJSON.self, from: answer.body))
            daemon.process.terminate()
            let (status, log) = await daemon.waitForExit(timeout: .seconds(60))
            #expect(status == 0, "\(log.suffix(2000))")
            if start == 0 {
                // The first start builds and saves, saying so in its log.
                #expect(log.contains("building the matcher") && log.contains("shortlist index")
                        && log.contains("saving the matcher index"), "\(log.suffix(2000))")
                #expect(FileManager.default.fileExists(atPath: index))
            } else {
                // The second loads what the first saved, and builds nothing.
                #expect(log.contains("loading the matcher index") && !log.contains("shortlist index"), "\(log.suffix(2000))")
            }
        }
        // The same answer from the matcher built and the one loaded.
        #expect(answers.count == 2 && answers.first?.results == answers.last?.results && answers.first?.results.isEmpty == false)
    }
}
