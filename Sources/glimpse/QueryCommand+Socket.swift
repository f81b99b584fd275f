import ArgumentParser
import Foundation
import GlimpseClient
import GlimpseWire
import GlimpseImage

extension QueryCommand {
    /// Sends each picture (or the cursor) to the daemon at `socket` over one connection and prints
    /// every page exactly as the in-process query does.
    func runAgainstDaemon(socket: String) async throws {
        let given = givenLabels()
        let more = "glimpse query --socket \(socket) --cursor CURSOR" + (limit != 10 ? " --limit \(limit)" : "")
        let client = GlimpseClient(socketPath: socket)
        var failures = 0
        do {
            try await client.withConnection { connection in
                if let cursor {
                    let answer = try await connection.next(cursor: cursor, limit: limit)
                    printPage(answer, moreCommand: more)
                    return
                }
                guard !files.isEmpty else {
                    throw IntentsCommandError("--socket needs a FILE or --cursor: the daemon answers pictures")
                }
                for file in files {
                    printHeader(file)
                    let bytes: [UInt8]
                    do {
                        bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
                    } catch {
                        failures += reportFailure("\(file): cannot read it (\(error.localizedDescription))")
                        continue
                    }
                    do {
                        let box = try region().map {
                            RegionJSON(x: $0.x, y: $0.y, width: $0.width, height: $0.height)
                        }
                        let answer = try await connection.query(
                            image: bytes, labels: given, limit: limit, box: box, minimumScore: minScore)
                        printPage(answer, moreCommand: more)
                        if explain != nil { try writeExplain(try await connection.explain(image: bytes, box: box)) }
                    } catch let error as GlimpseClientError {
                        failures += reportFailure("\(file): \(error.description)")
                    }
                }
            }
        } catch let error as GlimpseClientError {
            throw IntentsCommandError(error.description)
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
