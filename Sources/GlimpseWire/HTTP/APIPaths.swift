import Foundation

/// The daemon's URL paths that answers carry (docs/api.md), written in this one place beside the JSON
/// that holds them, so the catalog and the domain below it never spell a route.
public enum APIPaths {
    /// The versioned prefix of every route but `/healthz` and `/metrics`.
    public static let version = "/v1"

    /// `/v1/entities/{type}/{id}/image`: where the daemon serves an entity's picture, with `id`
    /// percent-encoded as one path segment (`/`, `?`, `#` and `%` included).
    public static func entityImage(type: String, id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%")
        let escaped = id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
        return "\(version)/entities/\(type)/\(escaped)/image"
    }
}
