import Foundation
import GlimpseFiles
import GlimpseTestSupport
import Testing

/// The writer's lock: one holder at a time, its pid named to the refused, and a lock released while
/// another waits within the release grace is taken rather than reported held.
@Suite struct FileLockTests {
    @Test func aHeldLockIsRefusedNamingItsHolderAndTakenOnceReleased() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.lock")
        var first: FileLock? = try FileLock.acquire(path)
        // Two open descriptions of one file conflict even in one process, as two processes would.
        #expect(throws: FileLock.Failure.held(path: path, holder: getpid())) { try FileLock.acquire(path) }
        #expect(first != nil)
        first = nil
        #expect(FileLock.holder(of: path) == nil)
        _ = try FileLock.acquire(path)
    }

    @Test func aLockReleasedWithinTheGraceIsTaken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.lock")
        let held = Holder(try FileLock.acquire(path))
        // Released 50 ms from now, on another thread, as a spawning child's copy closes at its exec.
        Thread.detachNewThread {
            usleep(50_000)
            held.release()
        }
        let second = try FileLock.acquire(path)
        #expect(FileLock.holder(of: second.path) == getpid())
    }

    /// Keeps a lock until told to let it go, from any thread.
    final class Holder: @unchecked Sendable {
        // @unchecked: `lock` is written once, by `release`, while the test only waits.
        private var lock: FileLock?
        init(_ lock: FileLock) { self.lock = lock }
        func release() { lock = nil }
    }
}
