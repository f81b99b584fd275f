import Foundation
import GlimpseCatalog
import GlimpseStore
@testable import GlimpseStorePostgres
import GlimpseTestSupport
import GlimpseWire
import PostgresNIO
import Testing

/// What only the PostgreSQL store does: settings, several writers on one database, change signals,
/// and a server that goes away.
@Suite(.hangGuard) struct StorePostgresTests {
    typealias F = StoreFixtures
    typealias P = PostgresFixtures

    @Test func settingsFromURLsAndTheEnvironment() throws {
        let url = try ConnectionSettings.parse(
            url: "postgresql://ann:p%40ss@db.example:6543/cat?sslmode=require&connect_timeout=3", environment: ["PGUSER": "bob"])
        #expect(url.endpoint == .tcp(host: "db.example", port: 6543) && url.username == "ann" && url.password == "p@ss")
        #expect(url.database == "cat" && url.tls == .require && url.connectTimeout == .seconds(3))
        #expect(url.target == "postgres://ann@db.example:6543/cat")
        let socket = try ConnectionSettings.parse(url: "postgres:///cat?host=/run/pg", environment: ["PGUSER": "bob"])
        #expect(socket.endpoint == .unixSocket(path: "/run/pg/.s.PGSQL.5432") && socket.username == "bob" && socket.database == "cat")
        #expect(socket.tlsConfiguration() == nil)
        let environment = try ConnectionSettings.parse(url: nil, environment: [
            "PGHOST": "/tmp/x", "PGPORT": "5433", "PGUSER": "glimpse", "PGDATABASE": "d", "PGSSLMODE": "disable",
        ])
        #expect(environment.endpoint == .unixSocket(path: "/tmp/x/.s.PGSQL.5433") && environment.database == "d")
        #expect(try ConnectionSettings.parse(url: nil, environment: ["PGHOST": "h", "PGUSER": "u"]).database == "u")
        #expect(throws: StoreError.self) { try ConnectionSettings.parse(url: "mysql://x/y", environment: [:]) }
        #expect(throws: StoreError.self) { try ConnectionSettings.parse(url: "postgres://x/y?sslmode=maybe", environment: [:]) }
        #expect(throws: StoreError.self) { try ConnectionSettings.parse(url: "postgres://x/y?options=-c", environment: [:]) }
        #expect(ConnectionSettings.redacted("postgres://a:secret@h/d").contains("secret") == false)
    }

    @Test func twoDaemonsStartingAtOnceShareOneStore() async throws {
        let database = try await P.database()
        async let first = database.open()
        async let second = database.open()
        let (a, b) = try await (first, second)
        #expect(a.storeID == b.storeID && UUID(uuidString: a.storeID) != nil && a.schemaVersion == 1)
        _ = try await a.apply(.setLabels(["water"], precondition: .none))
        #expect(try await b.read(featuresKey: nil).labels == ["water"])
        await a.close()
        await b.close()
        let again = try await database.open()
        #expect(again.storeID == b.storeID)
        await again.close()
    }

    @Test func refusesANewerSchema() async throws {
        let database = try await P.database()
        let store = try await database.open()
        await store.close()
        try await P.admin(try TestPostgres.server(), database: database.name) { connection in
            try await connection.query("UPDATE store_meta SET value = '99' WHERE key = 'schema_version'", logger: P.logger)
        }
        await #expect(throws: StoreError.schemaTooNew(path: store.target, found: 99, supported: 1)) {
            try await database.open()
        }
    }

    /// Two store objects on one database, as two daemons: edits serialise, none is lost, and a
    /// precondition one of them checks sees the other's commits. Twenty edits queue for one lock: on a
    /// machine busy with the other tests the last may wait longer than the default five seconds (the
    /// next test shows what that wait ends in), so these stores wait up to a minute.
    @Test func concurrentWritersSerialise() async throws {
        let database = try await P.database()
        let (a, b) = (try await database.open(statementTimeout: .seconds(60)),
                      try await database.open(statementTimeout: .seconds(60)))
        _ = try await a.apply(.setLabels(["water"], precondition: .none))
        let applied = try await withThrowingTaskGroup(of: AppliedEdit.self) { group in
            for index in 0..<20 {
                let store = index.isMultiple(of: 2) ? a : b
                group.addTask {
                    try await store.apply(.putPlace(F.place("p\(index)"), photos: [F.photo("p\(index)")], precondition: .none))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(applied.map(\.sequence)) == Set(2...21))
        let log = try await b.changes(after: 0)
        #expect(log.map(\.sequence) == Array(1...21))
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        #expect(try await a.read(featuresKey: nil).places.count == 20)

        // Both edit p0 at the revision they read: exactly one wins, the other is told the new revision.
        let revision = try #require(try await a.read(featuresKey: nil).places.first { $0.definition.id == "p0" }).revision
        let results = await withTaskGroup(of: Result<AppliedEdit, StoreError>.self) { group in
            for store in [a, b] {
                group.addTask {
                    do throws(StoreError) {
                        return .success(try await store.apply(.putPlace(
                            F.place("p0", labels: ["water"]), photos: nil, precondition: .revision(revision))))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let won = results.compactMap { try? $0.get() }
        #expect(won.count == 1)
        let winner = try #require(won.first)
        #expect(results.contains { $0 == .failure(.preconditionFailed(type: "place", id: "p0", current: winner.sequence)) })
        await a.close()
        await b.close()
    }

    /// An edit that waits too long for another writer's lock ends as unavailable (a 503 to try again),
    /// and the connection it used serves the next edit: the lock timeout arrives after the row
    /// description of `SELECT … FOR UPDATE`, and must not be mistaken for success and then surface as
    /// "current transaction is aborted" on the next statement.
    @Test func anEditThatWaitsTooLongForTheLockIsUnavailableAndLosesNothing() async throws {
        let database = try await P.database()
        let store = try await database.open(statementTimeout: .milliseconds(500))
        _ = try await store.apply(.setLabels(["water"], precondition: .none))
        try await P.admin(try TestPostgres.server(), database: database.name) { other in
            try await other.query("BEGIN", logger: P.logger)
            _ = try await other.query("SELECT value FROM store_meta WHERE key = 'sequence' FOR UPDATE",
                                      logger: P.logger).collect()
            await #expect {
                try await store.apply(.putPlace(F.place("p0"), photos: [F.photo("p0")], precondition: .none))
            } throws: { error in
                guard case let .unavailable(reason) = error as? StoreError else { return false }
                return reason.contains("timeout")
            }
            try await other.query("ROLLBACK", logger: P.logger)
        }
        let applied = try await store.apply(.putPlace(F.place("p0"), photos: [F.photo("p0")], precondition: .none))
        #expect(applied.sequence == 2 && applied.changed)
        #expect(try await store.read(featuresKey: nil).places.map(\.definition.id) == ["p0"])
        await store.close()
    }

    @Test func changeSignalsHearAnotherStoresEdits() async throws {
        let database = try await P.database()
        let (listener, writer) = (try await database.open(), try await database.open())
        let signals = try #require(listener.changeSignals())
        var iterator = signals.makeAsyncIterator()
        #expect(await iterator.next() == .changed(sequence: nil))  // listening
        let own = try await listener.apply(.setLabels(["water"], precondition: .none))
        #expect(await iterator.next() == .changed(sequence: own.sequence))
        let other = try await writer.apply(.setLabels(["water", "stone"], precondition: .none))
        let committed = ContinuousClock.now
        #expect(await iterator.next() == .changed(sequence: other.sequence))
        let heard = ContinuousClock.now - committed
        #expect(heard < .seconds(1), "the other store's edit was heard \(heard) after it committed")
        print("glimpse-store-postgres: another store's edit heard \(heard) after its commit returned")
        await listener.close()
        #expect(await iterator.next() == nil)
        await writer.close()
    }

    @Test func listenerReconnectsWhenItsBackendIsTerminated() async throws {
        let database = try await P.database()
        let store = try await database.open()
        var iterator = try #require(store.changeSignals()).makeAsyncIterator()
        #expect(await iterator.next() == .changed(sequence: nil))  // listening
        _ = try await store.apply(.setLabels(["water"], precondition: .none))
        #expect(await iterator.next() == .changed(sequence: 1))
        let terminated = try await P.admin(try TestPostgres.server()) { connection in
            try await connection.query("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE application_name = 'glimpse-listener' AND datname = \(database.name)
                """, logger: P.logger).collect().count
        }
        #expect(terminated == 1)
        guard case .connectionLost = await iterator.next() else { Issue.record("expected connectionLost"); return }
        #expect(await iterator.next() == .connectionRestored)
        let edit = try await store.apply(.setLabels(["water", "stone"], precondition: .none))
        #expect(await iterator.next() == .changed(sequence: edit.sequence))
        await store.close()
    }

    /// What `attempt` returns once it no longer fails with `StoreError.unavailable` (the server is up, but
    /// a busy machine took longer than the connect timeout), asked again through the shared polling
    /// helper; any other error ends the test. The ten minutes only bound a hang: with both cores busy
    /// beside the suite, the first connection to a fresh server has taken over two.
    static func retryingUnavailable<T>(_ what: String, _ attempt: () async throws -> T) async throws -> T {
        var result: T?
        try await poll(every: .milliseconds(100), upTo: .seconds(600), what) {
            do {
                result = try await attempt()
                return true
            } catch StoreError.unavailable {
                return false
            }
        }
        return try #require(result)
    }

    /// With the server stopped, calls fail fast with `.unavailable`; the listener says it lost its
    /// connection, and says when it is back after the server restarts.
    @Test func aStoppedServerIsUnavailableAndTheListenerComesBack() async throws {
        let cluster = try TestPostgres.startCluster()
        defer { cluster.stop() }
        let database = try await P.database(on: cluster.server)
        // The 2 s connect timeout is what is tested once the server stops; while it runs, a machine busy
        // with the rest of the suite may take longer for a connection, so opening and edits are retried.
        let store = try await Self.retryingUnavailable("opening the store") {
            try await database.open(["PGCONNECT_TIMEOUT": "2"])
        }
        var iterator = try #require(store.changeSignals()).makeAsyncIterator()
        #expect(await iterator.next() == .changed(sequence: nil))  // listening
        _ = try await Self.retryingUnavailable("the first edit") {
            try await store.apply(.setLabels(["water"], precondition: .none))
        }
        #expect(await iterator.next() == .changed(sequence: 1))

        try cluster.stopServer()
        guard case .connectionLost = await iterator.next() else { Issue.record("expected connectionLost"); return }
        // The edit is made and timed by a task on an executor of its own, as a daemon's would be: the
        // store's deadline runs on the store's executor, and this test's own task, on the suite's shared
        // executor, may resume many seconds late on a busy machine (20 s beside two CPU hogs).
        let caller = DedicatedExecutor(label: "glimpse.test.store-caller")
        let (waited, failure) = await Task(executorPreference: caller) { () -> (Duration, StoreError?) in
            let started = ContinuousClock.now
            do throws(StoreError) {
                _ = try await store.apply(.setLabels(["water", "stone"], precondition: .none))
                return (ContinuousClock.now - started, nil)
            } catch {
                return (ContinuousClock.now - started, error)
            }
        }.value
        if let failure {
            guard case .unavailable = failure else { Issue.record("expected unavailable, got \(failure)"); return }
            #expect(failure.description.contains("retry the edit later"))
            print("glimpse-store-postgres: with the server stopped: \(failure)")
        } else {
            Issue.record("an edit succeeded with the server stopped")
        }
        // The connect timeout (2 s) bounds it; the margin is for a machine busy with other processes.
        #expect(waited < .seconds(8), "an edit took \(waited) to fail")
        print("glimpse-store-postgres: edit with the server stopped failed after \(waited)")

        try cluster.start()
        #expect(await iterator.next() == .connectionRestored)
        let edit = try await Self.retryingUnavailable("the edit after the restart") {
            try await store.apply(.setLabels(["water", "stone"], precondition: .none))
        }
        #expect(await iterator.next() == .changed(sequence: edit.sequence))
        #expect(try await store.delta(after: 1, featuresKey: nil).labels == ["water", "stone"])
        await store.close()
    }
    /// The time `call` took on an executor of its own (as a daemon's request runs), and its error.
    static func timed<T: Sendable>(
        on executor: DedicatedExecutor, _ call: @escaping @Sendable () async throws -> T
    ) async -> (Duration, (any Error)?) {
        await Task(executorPreference: executor) { () -> (Duration, (any Error)?) in
            let started = ContinuousClock.now
            do {
                _ = try await call()
                return (ContinuousClock.now - started, nil)
            } catch {
                return (ContinuousClock.now - started, error)
            }
        }.value
    }

    /// A server that stops answering (its processes frozen: connections stay open, nothing comes back)
    /// holds no call past its deadlines: a call on a pooled connection ends at twice the statement
    /// timeout and drops that connection, one that needs a new connection ends at the connect timeout,
    /// a cancelled call returns at once; once the server answers again the store works, and every
    /// connection carries the server-side limits.
    @Test func aServerThatStopsAnsweringHoldsNoCallPastItsDeadlines() async throws {
        let cluster = try TestPostgres.startCluster()
        defer {
            try? cluster.thawServer()
            cluster.stop()
        }
        let database = try await P.database(on: cluster.server)
        let store = try await Self.retryingUnavailable("opening the store") {
            try await PostgresCatalogStore.open(
                url: database.url, environment: database.environment.merging(["PGCONNECT_TIMEOUT": "2"]) { $1 },
                logger: P.logger, taskExecutor: DedicatedExecutor.store, statementTimeout: .seconds(1))
        }
        #expect(try await store.lease { try await $0.value("SHOW statement_timeout", as: String.self) } == "1s")
        #expect(try await store.lease { try await $0.value("SHOW lock_timeout", as: String.self) } == "1s")
        _ = try await Self.retryingUnavailable("the first edit") {
            try await store.apply(.setLabels(["water"], precondition: .none))
        }
        // A store whose own deadlines are a minute away, for the cancelled call: ending well before them
        // can only be the cancellation (a bound near the short deadlines above would depend on the load).
        let patient = try await Self.retryingUnavailable("opening the patient store") {
            try await PostgresCatalogStore.open(
                url: database.url, environment: database.environment.merging(["PGCONNECT_TIMEOUT": "60"]) { $1 },
                logger: P.logger, taskExecutor: DedicatedExecutor.store, statementTimeout: .seconds(30))
        }
        _ = try await patient.changes(after: 0)

        try cluster.freezeServer()
        let caller = DedicatedExecutor(label: "glimpse.test.store-caller")
        // The pool lends the idle connection at once; its statements never come back.
        let (waited, failure) = await Self.timed(on: caller) {
            try await store.apply(.setLabels(["water", "stone"], precondition: .none))
        }
        guard case .unavailable = failure as? StoreError else {
            Issue.record("expected unavailable, got \(String(describing: failure))")
            return
        }
        print("glimpse-store-postgres: an edit on a frozen server failed after \(waited): \(String(describing: failure))")
        #expect(waited < .seconds(8), "an edit on a frozen server took \(waited)")
        // Its connection was dropped: the next call needs a new one, which the frozen server never
        // completes, and ends at the connect timeout (2 s), or at the run limit if one was lent.
        let (again, secondFailure) = await Self.timed(on: caller) { try await store.changes(after: 0) }
        #expect(secondFailure != nil && again < .seconds(8), "a second call on a frozen server took \(again)")
        // A caller that goes away is answered at once, whatever the call waits for: the patient store's
        // call would wait a minute on its own.
        let started = ContinuousClock.now
        let cancelled = Task(executorPreference: caller) { try await patient.changes(after: 0) }
        try await Task.sleep(for: .milliseconds(300))
        cancelled.cancel()
        _ = await cancelled.result
        #expect(ContinuousClock.now - started < .seconds(20), "a cancelled call took \(ContinuousClock.now - started)")

        try cluster.thawServer()
        let edit = try await Self.retryingUnavailable("the edit once the server answers again") {
            try await store.apply(.setLabels(["water", "stone"], precondition: .none))
        }
        #expect(try await store.delta(after: 0, featuresKey: nil).labels == ["water", "stone"])
        #expect(edit.sequence >= 2)
        await patient.close()
        await store.close()
    }
}
