import Foundation
import GlimpseTestSupport
import Testing

/// A child the tests start with `posix_spawn` (a PostgreSQL server) holds none of the test process's
/// descriptors, which may belong to other tests' children (see ``addCloseFrom(_:to:)``).
struct SpawnedChildDescriptorTests {
    /// The descriptors a `/bin/sh` child lists as its own, spawned with or without the closing.
    private func childDescriptors(closing: Bool, in directory: TemporaryDirectory) throws -> Set<Int32> {
        let listing = directory.file("fds-\(closing).txt")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, listing, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if closing { addCloseFrom(3, to: &actions) }
        let command = ["/bin/sh", "-c", "ls /proc/$$/fd"]
        var argv = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, command[0], &actions, nil, &argv, environ) == 0)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        try #require(status == 0)
        let text = try String(contentsOfFile: listing, encoding: .utf8)
        return Set(text.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) })
    }

    @Test func aSpawnedChildGetsOnlyItsStandardDescriptors() throws {
        let directory = try TemporaryDirectory()
        // A pipe without close-on-exec, as Foundation's `Process` makes for a child it is starting.
        var pipe: [Int32] = [0, 0]
        try #require(Glibc.pipe(&pipe) == 0)
        defer { for descriptor in pipe { close(descriptor) } }
        let inherited = try childDescriptors(closing: false, in: directory)
        #expect(inherited.isSuperset(of: pipe), "the control: without the closing the child holds the pipe")
        let closed = try childDescriptors(closing: true, in: directory)
        #expect(closed.isDisjoint(with: pipe))
        #expect(closed == [0, 1, 2])
    }
}
