import Foundation
import GlimpseCatalog
import GlimpseServer

extension QueryCommand {
    /// Sends the picture (or the cursor) to the daemon at `socket` and returns its page in the same
    /// form the in-process query prints.
    func queryDaemon(socket: String) async throws -> VisualSearchResponse {
        let given = (labels ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        let client = GlimpseClient(socketPath: socket)
        do {
            let answer: QueryResponseJSON = try await client.withConnection { connection in
                if let cursor {
                    return try await connection.next(cursor: cursor, limit: limit)
                }
                guard let file else {
                    throw IntentsCommandError("--socket needs a FILE or --cursor: the daemon answers pictures")
                }
                let bytes: [UInt8]
                do {
                    bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
                } catch {
                    throw IntentsCommandError("\(file): cannot read it (\(error.localizedDescription))")
                }
                return try await connection.query(image: bytes, labels: given, limit: limit)
            }
            return try answer.visualSearchResponse()
        } catch let error as GlimpseClientError {
            throw IntentsCommandError(error.description)
        }
    }
}
