import Foundation
import GlimpseTestSupport
import GlimpseWire
import NIOCore
import NIOPosix
import Testing

/// `glimpse serve --http` through the real daemon and curl over TCP: the same API and the console, edits
/// only with the admin token, requests for other hosts refused, and the address rules at start.
@Suite("HTTP listener, through the daemon", .serialized)
struct HTTPListenerDaemonTests {
    static let token = "test-admin-token-0123456789"

    /// A listening socket on a loopback port the kernel chose, and that port (through SwiftNIO).
    static func holdPort() async throws -> (channel: any Channel, port: Int) {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        return (channel, try #require(channel.localAddress?.port))
    }

    /// A loopback port that was free a moment ago.
    static func freePort() async throws -> Int {
        let (channel, port) = try await holdPort()
        try await channel.close()
        return port
    }

    /// A daemon on a store with `--http 127.0.0.1:PORT` (and the token file when `withToken`).
    static func start(in directory: TemporaryDirectory, withToken: Bool) async throws -> (ServeProcess, String, String) {
        let port = try await freePort()
        var extra = ["--http", "127.0.0.1:\(port)"]
        if withToken {
            let file = try directory.write("admin-token", Array((token + "\n").utf8))
            chmod(file, 0o600)
            extra += ["--admin-token-file", file]
        }
        let (daemon, socket) = try await LiveCatalogDaemonTests.start(in: directory, extra: extra)
        return (daemon, socket, "http://127.0.0.1:\(port)")
    }

    static func code(_ answer: (status: Int, head: String, body: Data)) -> String? {
        LiveCatalogDaemonTests.code(answer.body)
    }

    @Test func theConsoleAndQueriesAreServedAndEditsNeedTheToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, socket, base) = try await Self.start(in: directory, withToken: true)

        // The console: HTML and its two files, kept to their own origin.
        let page = try #require(await curl(nil, [base + "/"]))
        #expect(page.status == 200)
        #expect(header("Content-Type", in: page.head)?.hasPrefix("text/html") == true)
        #expect(header("Content-Security-Policy", in: page.head)?.contains("default-src 'none'") == true)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains(#"id="photo-input""#))
        // Every file the page names is served, with its type.
        let files = html.split(separator: "\"").filter { $0.hasPrefix("/console/") }
        #expect(files.count == 6, "\(files)")
        for file in files {
            let answer = try #require(await curl(nil, [base + file]))
            let type = header("Content-Type", in: answer.head) ?? ""
            #expect(answer.status == 200 && !answer.body.isEmpty, "\(file)")
            #expect(type.hasPrefix(file.hasSuffix(".css") ? "text/css" : "text/javascript"), "\(file): \(type)")
        }
        #expect(try #require(await curl(nil, [base + "/console/nothing.js"])).status == 404)

        // The same query answers over TCP as over the socket.
        let photo = "@" + bundledCatalogDirectory + "/photos/" + samplePhotos[0]
        let overTCP = try #require(await curl(nil, [
            "-H", "Content-Type: image/jpeg", "--data-binary", photo, base + "/v1/query?limit=3"]))
        #expect(overTCP.status == 200)
        let answer = try JSONDecoder().decode(QueryResponseJSON.self, from: overTCP.body)
        #expect(answer.results.first?.entity.id == "wooden-jetty-calm-lake")
        #expect(try #require(await curl(nil, [base + "/healthz"])).status == 200)

        // Edits: none without the token, none with another, then one with it.
        let target = base + "/v1/places/wooden-jetty-calm-lake"
        let bare = try #require(await curl(nil, ["-X", "DELETE", target]))
        #expect(bare.status == 401 && Self.code(bare) == "unauthorized")
        #expect(header("WWW-Authenticate", in: bare.head)?.hasPrefix("Bearer") == true)
        let wrong = try #require(await curl(nil, ["-X", "DELETE", "-H", "Authorization: Bearer not-the-token-at-all", target]))
        #expect(wrong.status == 403 && Self.code(wrong) == "bad_token")
        let basic = try #require(await curl(nil, ["-X", "DELETE", "-H", "Authorization: Basic \(Self.token)", target]))
        #expect(basic.status == 403)
        #expect(try #require(await curl(nil, [target])).status == 200, "nothing was deleted")
        let done = try #require(await curl(nil, ["-X", "DELETE", "-H", "Authorization: Bearer \(Self.token)", target]))
        #expect(done.status == 200, "\(String(decoding: done.body, as: UTF8.self))")
        #expect(try #require(await curl(nil, [target])).status == 404)
        // The socket still takes edits from the daemon's own user, without a token.
        let overSocket = try #require(await curl(socket, ["-X", "DELETE", "http://glimpse/v1/places/colorful-plastic-cups"]))
        #expect(overSocket.status == 200)

        // A page whose name was pointed at 127.0.0.1 sends its own Host: refused.
        let rebound = try #require(await curl(nil, ["-H", "Host: attacker.example", base + "/healthz"]))
        #expect(rebound.status == 421 && Self.code(rebound) == "not_a_loopback_host")
        #expect(try #require(await curl(nil, ["-H", "Host: localhost:1", base + "/healthz"])).status == 200)

        daemon.process.terminate()
        let exit = await daemon.waitForExit(timeout: .seconds(60))
        #expect(exit.status == 0)
        #expect(!exit.output.contains(Self.token), "the token is never logged")
        #expect(exit.output.contains("http://127.0.0.1:"))
    }

    @Test func withoutATokenEveryEditOverTCPIsRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, _, base) = try await Self.start(in: directory, withToken: false)
        let put = try #require(await curl(nil, [
            "-X", "PUT", "-H", "Content-Type: application/json", "-H", "Authorization: Bearer \(Self.token)",
            "--data", #"{"labels":["sky"]}"#, base + "/v1/labels"]))
        #expect(put.status == 403 && Self.code(put) == "edits_need_token")
        #expect(try #require(await curl(nil, [base + "/v1/catalog"])).status == 200)
        daemon.process.terminate()
        #expect(await daemon.waitForExit(timeout: .seconds(60)).status == 0)
    }

    @Test func aNonLoopbackAddressOrABusyPortStopsTheStart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("g.sock")
        let open = try ServeProcess(socket: socket, extra: ["--http", "0.0.0.0:8080"])
        let refused = await open.waitForExit(timeout: .seconds(120))
        #expect(refused.status == 64)
        #expect(refused.output.contains("not a loopback address"))

        let (holder, port) = try await Self.holdPort()
        let busy = try ServeProcess(socket: socket, extra: ["--http", "127.0.0.1:\(port)"])
        let failed = await busy.waitForExit(timeout: .seconds(600))
        try await holder.close()
        #expect(failed.status == 74, "\(failed.output.suffix(800))")
        #expect(failed.output.contains("cannot listen on http://127.0.0.1:\(port)/"))
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed")
    }
}
