import Foundation
import GlimpseServer
import GlimpseTestSupport
import Testing

/// The TCP listener's address rules and the admin token, without a daemon.
@Suite("HTTP listener: address and token")
struct HTTPListenerTests {
    @Test(arguments: ["127.0.0.1:8080", "127.1.2.3:0", "localhost:9000", "[::1]:65535", "LOCALHOST:80"])
    func loopbackAddressesAreTaken(_ text: String) throws {
        let address = try HTTPListenerAddress(parsing: text)
        #expect(address.isLoopback)
        #expect(!address.host.isEmpty && address.host != "localhost")
    }

    @Test(arguments: ["0.0.0.0:8080", "192.168.1.4:80", "[::]:8080", "[2001:db8::1]:443", "[::ffff:10.0.0.1]:80"])
    func otherAddressesAreRefusedUnlessAllowed(_ text: String) throws {
        let error = #expect(throws: GlimpseServerError.self) { try HTTPListenerAddress(parsing: text) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("--http-allow-non-loopback") == true)
        let allowed = try HTTPListenerAddress(parsing: text, allowingNonLoopback: true)
        #expect(!allowed.isLoopback)
    }

    @Test(arguments: ["8080", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "::1:8080",
                      "[127.0.0.1]:80", "example.com:80", "127.0.0.1:８０"])
    func malformedAddressesSayWhatToWrite(_ text: String) {
        let error = #expect(throws: GlimpseServerError.self) { try HTTPListenerAddress(parsing: text, allowingNonLoopback: true) }
        #expect(error?.message.hasPrefix("invalid server configuration: --http \(text):") == true)
    }

    @Test func anIPv6AddressIsWrittenInBrackets() throws {
        #expect(try HTTPListenerAddress(parsing: "[::1]:8080").description == "[::1]:8080")
        #expect(try HTTPListenerAddress(parsing: "localhost:8080").description == "127.0.0.1:8080")
    }

    @Test func theTokenMatchesOnlyItself() throws {
        let token = try AdminToken("  s3cret-token-of-24-chars\n")
        #expect(token.matches(Array("s3cret-token-of-24-chars".utf8)))
        for other in ["s3cret-token-of-24-charz", "s3cret-token-of-24-char", "s3cret-token-of-24-chars!", "", "x"] {
            #expect(!token.matches(Array(other.utf8)), "\(other)")
        }
        #expect("\(token)" == "AdminToken(redacted)")
    }

    @Test func aShortOrSpacedTokenIsRefused() {
        #expect(throws: GlimpseServerError.self) { try AdminToken("short") }
        #expect(throws: GlimpseServerError.self) { try AdminToken("has a space in the middle") }
    }

    @Test func aTokenFileOthersCanReadIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("token", Array("0123456789abcdef0123".utf8))
        chmod(path, 0o644)
        let error = #expect(throws: GlimpseServerError.self) { try AdminToken(readingFile: path) }
        #expect(error?.message.contains("chmod 600") == true)
        chmod(path, 0o600)
        let token = try AdminToken(readingFile: path)
        #expect(token.matches(Array("0123456789abcdef0123".utf8)))
        #expect(throws: GlimpseServerError.self) { try AdminToken(readingFile: directory.file("missing")) }
    }
}
