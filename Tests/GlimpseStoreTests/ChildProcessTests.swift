import Foundation
import GlimpseTestSupport
import Testing

/// The tests' own spawned children: their output, their exit status, and a bound on the wait.
struct ChildProcessTests {
    @Test func outputAndErrorsAreCollectedAndTheStatusIsReported() async throws {
        let directory = try TemporaryDirectory()
        let child = try ChildProcess(["/bin/sh", "-c", "pwd; echo to-errors >&2; exit 3"],
                                     environment: ["PATH": "/usr/bin:/bin"], directory: directory.path)
        #expect(await child.waitForExit(timeout: .seconds(60)) == 3)
        let text = String(decoding: child.output.readDataToEndOfFile(), as: UTF8.self)
        let resolved = (directory.path as NSString).resolvingSymlinksInPath
        #expect(text.contains(resolved) || text.contains(directory.path), "\(text)")
        #expect(text.contains("to-errors"))
    }

    @Test func aChildThatOutlivesTheWaitIsKilled() async throws {
        // A day: the test's task, back from its 1 s wait, has waited over 600 s in the suite's line before
        // it could kill a child sleeping 600 s, which had ended by itself.
        let child = try ChildProcess(["/bin/sleep", "86400"], environment: [:], directory: "/")
        #expect(await child.waitForExit(timeout: .seconds(1)) == nil)
        #expect(child.exitStatus == 128 + SIGKILL)
    }

    @Test func aSignalledChildReportsTheSignal() async throws {
        let child = try ChildProcess(["/bin/sleep", "600"], environment: [:], directory: "/")
        kill(child.processIdentifier, SIGTERM)
        #expect(await child.waitForExit(timeout: .seconds(60)) == 128 + SIGTERM)
    }

    @Test func aMissingProgramIsReported() async throws {
        // `env` starts, then fails to run the program: status 127, and it says so.
        let child = try ChildProcess(["/nonexistent/program"], environment: [:], directory: "/")
        #expect(await child.waitForExit(timeout: .seconds(60)) == 127)
        #expect(String(decoding: child.output.readDataToEndOfFile(), as: UTF8.self).contains("No such file"))
    }
}
