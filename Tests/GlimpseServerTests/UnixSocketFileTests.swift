import CGlimpseSocket
import Foundation
import GlimpseTestSupport
import Logging
import Testing

@testable import GlimpseServer

/// Binds a listening Unix socket at `path` without any HTTP on top (a "foreign" live listener), or,
/// with `listen: false`, leaves a bound socket node that nobody listens on (a crash leftover).
private func bindSocket(at path: String, listen shouldListen: Bool) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #expect(fd >= 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: Array(path.utf8) + [0])
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    #expect(bound == 0, "bind failed: errno \(errno)")
    if shouldListen { #expect(listen(fd, 4) == 0) }
    return fd
}

private let logger = Logger(label: "test")

@Suite("Socket path hygiene")
struct UnixSocketFileTests {
    @Test func missingDirectoriesAreCreatedPrivate() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("run/glimpse/g.sock")
        let claim = try UnixSocketFile.claim(path: path, logger: logger)
        defer { claim.release() }
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.file("run/glimpse"))
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test func staleSocketIsReplaced() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("g.sock")
        let fd = try bindSocket(at: path, listen: false)
        close(fd)
        #expect(CGlimpseSocket_probe(path) == ECONNREFUSED)
        let claim = try UnixSocketFile.claim(path: path, logger: logger)
        defer { claim.release() }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func liveListenerIsRefusedAndKept() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("g.sock")
        let fd = try bindSocket(at: path, listen: true)
        defer { close(fd) }
        var caught: GlimpseServerError?
        do {
            _ = try UnixSocketFile.claim(path: path, logger: logger)
        } catch {
            caught = error
        }
        #expect(caught?.code == .alreadyRunning)
        #expect(CGlimpseSocket_probe(path) == 0)
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
    }

    @Test(arguments: ["file", "directory"])
    func nonSocketIsRefusedAndKept(kind: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("g.sock")
        if kind == "file" {
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        } else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        var caught: GlimpseServerError?
        do {
            _ = try UnixSocketFile.claim(path: path, logger: logger)
        } catch {
            caught = error
        }
        #expect(caught?.code == .notASocket)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue == (kind == "directory"))
        if kind == "file" {
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        }
    }

    @Test func tooLongPathIsAClearError() throws {
        let path = "/tmp/" + String(repeating: "a", count: UnixSocketFile.maximumPathLength)
        var caught: GlimpseServerError?
        do {
            _ = try UnixSocketFile.claim(path: path, logger: logger)
        } catch {
            caught = error
        }
        #expect(caught?.code == .socketPathTooLong)
        #expect(caught?.message.contains("at most \(UnixSocketFile.maximumPathLength)") == true)
        #expect(UnixSocketFile.maximumPathLength == 107)
    }

    @Test func secondClaimWhileHeldIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("g.sock")
        let first = try UnixSocketFile.claim(path: path, logger: logger)
        defer { first.release() }
        var caught: GlimpseServerError?
        do {
            _ = try UnixSocketFile.claim(path: path, logger: logger)
        } catch {
            caught = error
        }
        #expect(caught?.code == .alreadyRunning)
    }

    @Test func releaseRemovesOnlyTheBoundSocket() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("g.sock")
        let claim = try UnixSocketFile.claim(path: path, logger: logger)
        let fd = try bindSocket(at: path, listen: true)
        defer { close(fd) }
        try claim.socketBound(mode: 0o600)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        claim.release()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
        // A second release is harmless.
        claim.release()
    }

    @Test func releaseLeavesAReplacedNodeAlone() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("g.sock")
        let claim = try UnixSocketFile.claim(path: path, logger: logger)
        let first = try bindSocket(at: path, listen: true)
        try claim.socketBound(mode: 0o660)
        close(first)
        unlink(path)
        try Data("other".utf8).write(to: URL(fileURLWithPath: path))
        claim.release()
        #expect(FileManager.default.fileExists(atPath: path))
    }
}

@Suite("Peer credentials")
struct PeerCredentialsTests {
    @Test func peerCredentialsOfASocketPairAreOurs() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var peer = CGlimpseSocket_peer()
        #expect(CGlimpseSocket_peer_credentials(fds[0], &peer) == 0)
        #expect(peer.pid == getpid())
        #expect(peer.uid == getuid())
        #expect(peer.gid == getgid())
    }

    @Test func policyAllowsListedUserOrGroupOnly() {
        let me = PeerCredentials(pid: 1, uid: 1000, gid: 100)
        #expect(PeerPolicy().allows(me))
        #expect(PeerPolicy().allows(nil))
        #expect(PeerPolicy(allowedUIDs: [1000]).allows(me))
        #expect(PeerPolicy(allowedGIDs: [100]).allows(me))
        #expect(!PeerPolicy(allowedUIDs: [0]).allows(me))
        #expect(!PeerPolicy(allowedUIDs: [0], allowedGIDs: [0]).allows(me))
        #expect(!PeerPolicy(allowedUIDs: [1000]).allows(nil))
    }
}
