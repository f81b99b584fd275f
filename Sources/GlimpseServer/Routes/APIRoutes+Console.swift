import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /` and `GET /console/{asset}`: the web console, served from the bytes compiled into the binary.
extension APIRoutes {
    /// Adds the console's routes to `router`.
    func registerConsole(on router: Router<GlimpseRequestContext>) {
        router.get("/") { _, _ in ConsoleAsset.page.response }
        router.get("/console/:asset") { _, context in
            let name = try context.parameters.require("asset")
            guard let asset = ConsoleAsset(named: name) else {
                throw APIError.notFound("no_such_asset", "the console has no file \(name)")
            }
            return asset.response
        }
    }
}

/// One file of the web console.
struct ConsoleAsset: Sendable {
    /// The bytes.
    let bytes: [UInt8]
    /// Its `Content-Type`.
    let contentType: String

    /// The page itself (`index.html`).
    static let page = ConsoleAsset(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")

    /// The asset served at `/console/NAME`, `nil` for a name the console does not have.
    init?(named name: String) {
        switch name {
        case "console.css": self.init(bytes: PackageResources.console_css, contentType: "text/css; charset=utf-8")
        case "console.js": self.init(script: PackageResources.console_js)
        case "search.js": self.init(script: PackageResources.search_js)
        case "catalog.js": self.init(script: PackageResources.catalog_js)
        case "health.js": self.init(script: PackageResources.health_js)
        case "start.js": self.init(script: PackageResources.start_js)
        default: return nil
        }
    }

    private init(script bytes: [UInt8]) {
        self.init(bytes: bytes, contentType: "text/javascript; charset=utf-8")
    }

    private init(bytes: [UInt8], contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
    }

    /// `200` with the bytes, and headers that keep the page to its own origin: scripts, styles, pictures and
    /// requests only from the daemon (pictures also from the page's own `blob:` URLs), never framed.
    var response: Response {
        Response(
            status: .ok,
            headers: [
                .contentType: contentType,
                .cacheControl: "no-cache",
                .contentSecurityPolicy: "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
                    + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
                .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
