import Foundation
@testable import GlimpseFiles
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

    @Test func aLockReleasedWithinTheGraceIsTaken() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.lock")
        var held: FileLock? = try FileLock.acquire(path)
        #expect(held != nil)
        // The holder lets go during the third pause, as a spawning child's copy closes at its exec.
        var pauses = 0
        let second = try FileLock.acquire(path) { milliseconds in
            #expect(milliseconds == FileLock.retryStepMilliseconds)
            pauses += 1
            if pauses == 3 { held = nil }
        }
        #expect(pauses == 3)
        #expect(FileLock.holder(of: second.path) == getpid())
    }

    @Test func aLockStillHeldWhenTheGraceRunsOutIsReportedHeld() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.lock")
        let held = try FileLock.acquire(path)
        var waited = 0
        #expect(throws: FileLock.Failure.held(path: path, holder: getpid())) {
            try FileLock.acquire(path) { waited += $0 }
        }
        #expect(Duration.milliseconds(waited) == FileLock.releaseGrace)
        #expect(FileLock.holder(of: held.path) == getpid())
    }
}
