/// How one entity is shown to people: a title, an optional subtitle and an optional image.
///
/// Mirrors App Intents' `DisplayRepresentation`; strings are plain `String`s because this library
/// does not localise.
public struct DisplayRepresentation: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The main line, such as a place's name.
    public var title: String
    /// The secondary line, such as a region and continent.
    public var subtitle: String?
    /// A picture of the entity.
    public var image: Image?

    /// Creates a representation.
    public init(title: String, subtitle: String? = nil, image: Image? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }

    /// Creates a representation with only a title.
    public init(stringLiteral title: String) {
        self.init(title: title)
    }

    /// A reference to the picture shown with an entity.
    public struct Image: Sendable, Hashable {
        /// Where the picture comes from.
        public enum Source: Sendable, Hashable {
            /// A file on this machine, by absolute path.
            case file(path: String)
            /// A resource of the app, by name.
            case named(String)
            /// Encoded image bytes (PNG or JPEG).
            case data([UInt8])
        }

        /// Where the picture comes from.
        public var source: Source

        /// A picture stored in a file at an absolute path.
        public init(filePath: String) { source = .file(path: filePath) }
        /// A picture known by name.
        public init(named name: String) { source = .named(name) }
        /// A picture given as encoded bytes.
        public init(data: [UInt8]) { source = .data(data) }
    }
}

/// How a kind of entity is named, such as "Place" and "12 places".
///
/// Mirrors App Intents' `TypeDisplayRepresentation` with plain strings.
public struct TypeDisplayRepresentation: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The singular name of the type.
    public var name: String
    /// A format for counts, with `%d` standing for the number, such as `"%d places"`.
    public var numericFormat: String?

    /// Creates a type representation.
    public init(name: String, numericFormat: String? = nil) {
        self.name = name
        self.numericFormat = numericFormat
    }

    /// Creates a type representation with only a name.
    public init(stringLiteral name: String) {
        self.init(name: name)
    }

    /// The count written with ``numericFormat``, or "`count` × `name`" when there is none.
    public func formatted(count: Int) -> String {
        guard let numericFormat else { return "\(count) × \(name)" }
        return numericFormat.split(separator: "%d", omittingEmptySubsequences: false).joined(separator: String(count))
    }
}
