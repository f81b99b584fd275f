import GlimpseBasics
import GlimpseClient

/// Measures round trips against a running daemon: for each concurrency level, that many
/// connections send `POST /v1/query` back to back for a fixed time, cycling through the pictures.
public struct DaemonBench: Sendable {
    /// The daemon's socket path.
    public var socketPath: String
    /// Connections in flight at once, one level after another.
    public var concurrency: [Int]
    /// How long each level runs.
    public var duration: Duration
    /// Results asked for per query.
    public var limit: Int

    /// Creates a daemon benchmark.
    public init(socketPath: String, concurrency: [Int] = [1, 8, 64], duration: Duration = .seconds(30), limit: Int = 5) {
        self.socketPath = socketPath
        self.concurrency = concurrency.map { max(1, $0) }
        self.duration = duration
        self.limit = max(1, limit)
    }

    /// Runs every level over `pictures` (encoded JPEG or PNG files), calling `progress` before each.
    ///
    /// Failed requests (error answers, dropped connections) are counted in
    /// ``LatencyPercentiles/errors``; a connection that fails is reopened.
    ///
    /// - Throws: ``GlimpseClientError/cannotConnect(path:reason:)`` when no daemon answers at all.
    public func run(pictures: [[UInt8]], progress: (String) -> Void = { _ in }) async throws -> [DaemonRow] {
        precondition(!pictures.isEmpty, "DaemonBench needs at least one picture")
        let client = GlimpseClient(socketPath: socketPath)
        // Fail early, with the client's own message, when nothing listens.
        _ = try await client.withConnection { try await $0.health() }
        var rows: [DaemonRow] = []
        for level in concurrency {
            progress("daemon: concurrency \(level) for \(duration.seconds) s")
            rows.append(try await runLevel(level, client: client, pictures: pictures))
        }
        return rows
    }

    private func runLevel(_ level: Int, client: GlimpseClient, pictures: [[UInt8]]) async throws -> DaemonRow {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + duration
        let limit = self.limit
        let total = await withTaskGroup(of: LatencyRecorder.self) { group in
            for worker in 0..<level {
                group.addTask {
                    var recorder = LatencyRecorder()
                    var next = worker
                    // Every worker makes at least one attempt, even one that starts after the deadline
                    // (a saturated machine can start it late), so no level reports no samples.
                    repeat {
                        do {
                            // Every connection opened sends at least one request.
                            try await client.withConnection { connection in
                                repeat {
                                    let picture = pictures[next % pictures.count]
                                    next += 1
                                    let t0 = clock.now
                                    do {
                                        _ = try await connection.query(image: picture, limit: limit)
                                        recorder.record(clock.now - t0)
                                    } catch GlimpseClientError.server {
                                        recorder.recordError()
                                    }
                                } while clock.now < deadline
                            }
                        } catch {
                            // A dropped or refused connection: count it, pause briefly, reconnect.
                            recorder.recordError()
                            try? await Task.sleep(for: .milliseconds(10))
                        }
                    } while clock.now < deadline && !Task.isCancelled
                    return recorder
                }
            }
            var merged = LatencyRecorder()
            for await recorder in group { merged.merge(recorder) }
            return merged
        }
        let elapsed = (clock.now - start).seconds
        return DaemonRow(concurrency: level, seconds: elapsed, latency: total.summary(seconds: elapsed))
    }
}
