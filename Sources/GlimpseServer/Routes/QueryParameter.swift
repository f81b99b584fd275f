import GlimpseCatalog
import Hummingbird

/// The one reading of a request's query parameters: a parameter that takes one value is refused when it
/// is given twice (the first would otherwise win in silence), and every value is refused when it holds a
/// control or bidirectional formatting character (`min_score=0.5%00` would otherwise parse as 0.5, since
/// number parsing stops at the NUL).
enum QueryParameter {
    /// The value of `name`, `nil` when it is absent.
    ///
    /// - Throws: `400 repeated_parameter` when `name` is given more than once; `400 bad_parameter` when its
    ///   value holds a refused character.
    static func single(_ name: String, of request: Request) throws -> String? {
        let values = request.uri.queryParameters.getAll(name)
        guard values.count <= 1 else {
            throw APIError.badRequest(
                "repeated_parameter", "\(name) is given \(values.count) times; pass it once")
        }
        guard let value = values.first else { return nil }
        try check(value, name: name)
        return value
    }

    /// Every value of the repeatable parameter `name`, in order.
    ///
    /// - Throws: `400 bad_parameter` when a value holds a refused character.
    static func all(_ name: String, of request: Request) throws -> [String] {
        let values = request.uri.queryParameters.getAll(name)
        for value in values { try check(value, name: name) }
        return values
    }

    private static func check(_ value: String, name: String) throws {
        for scalar in value.unicodeScalars where CatalogText.isRefused(scalar) {
            throw APIError.badRequest(
                "bad_parameter",
                "\(name) holds the character \(CatalogText.codePoint(scalar)); remove control and bidirectional formatting characters")
        }
    }
}
