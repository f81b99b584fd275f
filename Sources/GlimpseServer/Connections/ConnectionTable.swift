import NIOConcurrencyHelpers
import NIOCore

/// The daemon's open connections and what each is doing, for the connection cap.
///
/// The cap must not let slow or idle clients starve everyone else (a client sending its head a byte at
/// a time holds a connection for as long as the head deadline). So when all `maxConnections` are taken,
/// a new connection is still accepted if some connection has been waiting for a request head for at
/// least `evictionAge`: the one waiting longest is closed to make room (connections that were never
/// served go before served keep-alive ones). Connections busy with a request are never closed this way;
/// when every connection is busy, new ones wait in the listen backlog.
///
/// A value type: each transition is a plain function of the state and the time, tested as such.
struct ConnectionTable<ID: Hashable & Sendable>: Sendable {
    /// What a connection is doing.
    enum Activity: Equatable, Sendable {
        /// Accepted, no request head yet.
        case awaitingFirstHead
        /// Served at least one request and waiting for the next head.
        case awaitingNextHead
        /// Reading a request or answering it.
        case busy
    }

    private struct Entry: Sendable {
        var activity: Activity
        var since: NIODeadline
        var evicted = false
    }

    /// The most connections served at once before waiting ones are evicted.
    let maxConnections: Int
    /// How long a connection must have waited for a head before it may be evicted.
    let evictionAge: TimeAmount
    /// How many connections beyond the cap may be open while evicted ones close.
    let headroom: Int
    private var entries: [ID: Entry] = [:]

    init(maxConnections: Int, evictionAge: TimeAmount = .milliseconds(500), headroom: Int = 16) {
        self.maxConnections = maxConnections
        self.evictionAge = evictionAge
        self.headroom = headroom
    }

    /// Connections open (including evicted ones still closing).
    var count: Int { entries.count }

    /// Connections open and not evicted.
    var liveCount: Int { entries.values.count { !$0.evicted } }

    /// The activity of `id`, if it is open.
    func activity(of id: ID) -> Activity? { entries[id]?.activity }

    /// Whether a new connection may be accepted at `now`, and if not, what it waits for.
    enum Room: Equatable, Sendable {
        /// Accept (there is room, or a connection to evict).
        case accept
        /// Wait for evicted connections to finish closing.
        case waitForCloses
        /// Wait until a connection waiting for a head becomes evictable, at this time (`nil`: until a
        /// busy connection starts waiting or closes).
        case waitUntil(NIODeadline?)
    }

    /// Whether a new connection may be accepted at `now`.
    func room(now: NIODeadline) -> Room {
        if count >= maxConnections + headroom {
            // Over the cap with live connections: they are trimmed as they become evictable.
            return liveCount > maxConnections ? .waitUntil(nextEvictionTime()) : .waitForCloses
        }
        if liveCount < maxConnections || evictionCandidate(now: now) != nil { return .accept }
        return .waitUntil(nextEvictionTime())
    }

    /// Whether a new connection may be accepted at `now`.
    func canAccept(now: NIODeadline) -> Bool { room(now: now) == .accept }

    /// The earliest time a connection becomes evictable, if any waits for a head.
    func nextEvictionTime() -> NIODeadline? {
        entries.values.filter { !$0.evicted && $0.activity != .busy }.map { $0.since + evictionAge }.min()
    }

    /// Records an accepted connection; returns the connections to close to make room (as many as it
    /// takes to come back to the cap, as far as there are evictable ones).
    mutating func opened(_ id: ID, now: NIODeadline) -> [ID] {
        entries[id] = Entry(activity: .awaitingFirstHead, since: now)
        return trim(now: now)
    }

    /// Evicts connections waiting for a head (those evictable at `now`) while more than the cap are
    /// live (connections accepted while none could be evicted); returns them.
    mutating func trim(now: NIODeadline) -> [ID] {
        var victims: [ID] = []
        while liveCount > maxConnections, let victim = evictionCandidate(now: now) {
            entries[victim]?.evicted = true
            victims.append(victim)
        }
        return victims
    }

    /// Records what `id` is doing from `now` on.
    mutating func set(_ id: ID, _ activity: Activity, now: NIODeadline) {
        guard var entry = entries[id], entry.activity != activity else { return }
        entry.activity = activity
        entry.since = now
        entries[id] = entry
    }

    /// Forgets a closed connection.
    mutating func closed(_ id: ID) {
        entries[id] = nil
    }

    /// The connection to evict at `now`: the never-served one waiting longest, else the served one
    /// waiting longest, among those waiting at least `evictionAge`.
    func evictionCandidate(now: NIODeadline) -> ID? {
        var best: (id: ID, rank: Int, since: NIODeadline)?
        for (id, entry) in entries where !entry.evicted && entry.activity != .busy && now - entry.since >= evictionAge {
            let rank = entry.activity == .awaitingFirstHead ? 0 : 1
            if let current = best, (current.rank, current.since) <= (rank, entry.since) { continue }
            best = (id, rank, entry.since)
        }
        return best?.id
    }
}

private func <= (lhs: (Int, NIODeadline), rhs: (Int, NIODeadline)) -> Bool {
    lhs.0 != rhs.0 ? lhs.0 < rhs.0 : lhs.1 <= rhs.1
}

/// The connection table shared by the listener (which accepts and evicts) and every connection's guard
/// (which reports when it waits for a head and when it is busy). Thread-safe.
final class ConnectionRegistry: Sendable {
    private struct State: Sendable {
        var table: ConnectionTable<ObjectIdentifier>
        var channels: [ObjectIdentifier: any Channel] = [:]
        var onChange: (@Sendable () -> Void)?
    }

    /// Behind a pthread mutex (NIOLock) rather than `Synchronization.Mutex`: ThreadSanitizer follows the
    /// one and not the other (a futex on Linux), and every event loop and query thread meets here.
    private let state: NIOLockedValueBox<State>

    /// Creates a registry capping connections at `maxConnections`.
    init(maxConnections: Int, evictionAge: TimeAmount = .milliseconds(500)) {
        state = NIOLockedValueBox(State(table: ConnectionTable(maxConnections: maxConnections, evictionAge: evictionAge)))
    }

    /// Connections open.
    var count: Int { state.withLockedValue { $0.table.count } }

    /// Whether a new connection may be accepted now, and if not, what it waits for.
    func room(now: NIODeadline = .now()) -> ConnectionTable<ObjectIdentifier>.Room {
        state.withLockedValue { $0.table.room(now: now) }
    }

    /// The earliest time a waiting connection becomes evictable.
    func nextEvictionTime() -> NIODeadline? { state.withLockedValue { $0.table.nextEvictionTime() } }

    /// Called (on any thread) when a connection starts waiting for a head, so a listener waiting for room
    /// can look again.
    func setOnChange(_ callback: (@Sendable () -> Void)?) {
        state.withLockedValue { $0.onChange = callback }
    }

    /// Records an accepted connection, closing one that waits for a head when the cap is passed.
    func opened(_ channel: any Channel, now: NIODeadline = .now()) {
        let id = ObjectIdentifier(channel)
        let victims = state.withLockedValue { state -> [any Channel] in
            state.channels[id] = channel
            return state.table.opened(id, now: now).compactMap { state.channels[$0] }
        }
        for victim in victims { victim.close(promise: nil) }
    }

    /// Closes connections accepted beyond the cap as soon as they can be evicted.
    func trim(now: NIODeadline = .now()) {
        let victims = state.withLockedValue { state -> [any Channel] in
            state.table.trim(now: now).compactMap { state.channels[$0] }
        }
        for victim in victims { victim.close(promise: nil) }
    }

    /// Records what the connection `id` is doing.
    func set(_ id: ObjectIdentifier, _ activity: ConnectionTable<ObjectIdentifier>.Activity, now: NIODeadline = .now()) {
        let callback = state.withLockedValue { state -> (@Sendable () -> Void)? in
            state.table.set(id, activity, now: now)
            return activity == .busy ? nil : state.onChange
        }
        callback?()
    }

    /// Forgets a closed connection.
    func closed(_ id: ObjectIdentifier) {
        let callback = state.withLockedValue { state -> (@Sendable () -> Void)? in
            state.table.closed(id)
            state.channels[id] = nil
            return state.onChange
        }
        callback?()
    }
}

/// On the listener: accepts connections while the ``ConnectionRegistry`` has room (or a connection to
/// evict), registers each one, and waits otherwise (the listen backlog holds new clients meanwhile).
final class ConnectionLimiter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel
    typealias OutboundIn = Any
    typealias OutboundOut = Any

    private let registry: ConnectionRegistry
    private var waitingForRoom = false
    private var recheck: Scheduled<Void>?

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let loop = context.eventLoop
        registry.setOnChange {
            loop.execute {
                let (handler, context) = loopBound.value
                handler.roomMayHaveChanged(context: context)
            }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        registry.setOnChange(nil)
        recheck?.cancel()
        recheck = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let connection = unwrapInboundIn(data)
        registry.opened(connection)
        let registry = self.registry
        let id = ObjectIdentifier(connection)
        connection.closeFuture.whenComplete { _ in registry.closed(id) }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        waitingForRoom = true
        roomMayHaveChanged(context: context)
    }

    private func roomMayHaveChanged(context: ChannelHandlerContext) {
        guard waitingForRoom else { return }
        registry.trim()
        switch registry.room() {
        case .accept:
            waitingForRoom = false
            recheck?.cancel()
            recheck = nil
            context.read()
        case .waitForCloses, .waitUntil(nil):
            break  // a close, or a connection starting to wait, calls back
        case .waitUntil(let when?):
            scheduleRecheck(context: context, at: when)
        }
    }

    /// Looks again when the next waiting connection becomes evictable (time alone can make room).
    private func scheduleRecheck(context: ChannelHandlerContext, at when: NIODeadline) {
        guard recheck == nil else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        recheck = context.eventLoop.scheduleTask(deadline: when) {
            let (handler, context) = loopBound.value
            handler.recheck = nil
            handler.roomMayHaveChanged(context: context)
        }
    }
}
