import GlimpseStore
import GlimpseCatalog
import GlimpseVision

/// Following a store that other processes write too (several daemons on one PostgreSQL database).
extension LiveCatalog {
    /// What following the store observed, for the daemon's log and health.
    public enum FollowEvent: Sendable, Equatable {
        /// Changes written elsewhere are now served: the sequence before and after.
        case caughtUp(from: Int64, to: Int64)
        /// The store cannot be reached: queries keep being answered from the state served, edits fail.
        case storeUnavailable(reason: String)
        /// The store can be reached again (and what was missed has been caught up with).
        case storeRestored
        /// Catching up failed for another reason; the next signal or poll tries again.
        case catchUpFailed(reason: String)
    }

    /// Serves what other processes wrote to the store since the state this catalog serves: reads the
    /// change log's delta and updates the engine as one of its own edits would.
    ///
    /// - Returns: the sequence served afterwards.
    /// - Throws: ``LiveCatalogError`` when the store cannot be read or the changes cannot be served;
    ///   the state served is then unchanged.
    @discardableResult
    public func catchUp() async throws(LiveCatalogError) -> Int64 {
        do {
            let caughtUp = try await catchUpOnce()
            servingProblem = nil
            return caughtUp
        } catch {
            if case .store(.unavailable) = error {} else {
                // A change the store holds but this daemon cannot load (a row that does not decode or
                // validate): keep serving the last good state, and say so on /healthz.
                servingProblem = "the catalog store holds a change after sequence \(sequence) that this daemon cannot "
                    + "serve; it serves the catalog at sequence \(sequence) (its log says why, and "
                    + "`glimpse catalog check` finds the row)"
            }
            throw error
        }
    }

    private func catchUpOnce() async throws(LiveCatalogError) -> Int64 {
        let delta: CatalogDelta
        do { delta = try await store.delta(after: sequence, featuresKey: featuresKey) } catch { throw .store(error) }
        guard delta.sequence > sequence else { return sequence }
        if let whole = delta.whole {
            try await serveWhole(whole)
        } else {
            _ = try await absorb(
                places: delta.places, collections: delta.collections, labels: delta.labels,
                labelsRevision: delta.labelsRevision, sequence: delta.sequence)
        }
        return sequence
    }

    /// Follows the store until the calling task is cancelled or the store's signals end: catches up on
    /// every signal of a change, when the connection comes back, and every `poll` in case a signal was
    /// lost. Returns at once for a store that only this process writes.
    ///
    /// Catching up runs apart from the signals, one catch-up at a time (signals that arrive meanwhile
    /// ask for one more): a lost connection is noted at once, even while a catch-up waits for the
    /// store, so ``healthProblem`` says so while the store cannot be reached.
    ///
    /// - Parameters:
    ///   - poll: how often to catch up without a signal.
    ///   - onEvent: told of each catch-up and of every change of the store's reachability.
    public nonisolated func follow(poll: Duration = .seconds(5), onEvent: @escaping @Sendable (FollowEvent) -> Void) async {
        guard let signals = store.changeSignals() else { return }
        await setFollowing(true)
        defer { Task { await self.setFollowing(false) } }
        // At most one catch-up is asked for while one runs: more would read the same changes.
        let (wanted, asking) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await signal in signals {
                    switch signal {
                    case .changed(let sequence):
                        if let sequence, await sequence <= self.sequence { continue }
                        asking.yield()
                    case .connectionLost(let reason):
                        await self.noteUnavailable(reason, onEvent)
                    case .connectionRestored:
                        asking.yield()
                    }
                }
            }
            group.addTask {
                for await _ in wanted { await self.catchUpReporting(onEvent) }
            }
            group.addTask {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: poll) } catch { return }
                    asking.yield()
                }
            }
            // The signals end when the store closes: stop catching up and polling too.
            await group.next()
            asking.finish()
            group.cancelAll()
        }
    }

    /// Catches up, and reports what happened when it changes something or the store's reachability.
    private func catchUpReporting(_ onEvent: @Sendable (FollowEvent) -> Void) async {
        let before = sequence
        let losses = storeLosses
        do {
            let after = try await catchUp()
            // A catch-up that read the store before the connection was lost does not say it is back.
            if storeProblem != nil, storeLosses == losses {
                storeProblem = nil
                onEvent(.storeRestored)
            }
            if after != before { onEvent(.caughtUp(from: before, to: after)) }
        } catch {
            if case .store(.unavailable(let reason)) = error {
                noteUnavailable(reason, onEvent)
            } else {
                onEvent(.catchUpFailed(reason: "\(error)"))
            }
        }
    }

    private func setFollowing(_ on: Bool) { isFollowing = on }

    /// Records that the store cannot be reached, reporting it once until it is reached again.
    private func noteUnavailable(_ reason: String, _ onEvent: @Sendable (FollowEvent) -> Void) {
        storeLosses += 1
        guard storeProblem == nil else { return }
        storeProblem = reason
        onEvent(.storeUnavailable(reason: reason))
    }
}
