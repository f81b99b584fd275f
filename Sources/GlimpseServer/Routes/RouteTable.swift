/// The daemon's routes as method and path pattern, to tell a wrong method (`405` with `Allow`) from a
/// path that does not exist (`404`).
struct RouteTable: Sendable {
    private let routes: [(method: String, segments: [Substring])]

    /// Creates a table from (method, pattern) pairs; a pattern segment starting with `:` or written
    /// `{name}` matches any one segment.
    init(routes: [(method: String, path: String)]) {
        self.routes = routes.map { ($0.method, $0.path.split(separator: "/")) }
    }

    /// The methods some route accepts at `path`, sorted; empty when no route has that path.
    func allowedMethods(for path: String) -> [String] {
        let segments = path.split(separator: "/")
        let methods = routes.filter { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { pattern, segment in
                    pattern.hasPrefix(":") || pattern.hasPrefix("{") || pattern == segment
                }
        }.map(\.method)
        return Array(Set(methods)).sorted()
    }
}
