/// How one value is shown to people: a title, an optional subtitle and an optional image.
///
/// App Intents' `DisplayRepresentation`. Create it with `DisplayRepresentation(title:subtitle:image:)`,
/// or from a string literal (`"App Settings"`) or an interpolation (`"\(name)"`), which becomes the title.
public struct DisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The main line, such as a place's name.
    public var title: LocalizedStringResource
    /// The secondary line, such as a region and continent.
    public var subtitle: LocalizedStringResource?
    /// A picture of the value.
    public var image: Image?
    /// Other names people may use for the value.
    public var synonyms: [LocalizedStringResource]

    /// Creates a representation.
    public init(
        title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil, image: Image? = nil,
        synonyms: [LocalizedStringResource] = []
    ) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
        self.synonyms = synonyms
    }

    /// A representation with only a title.
    public init(stringLiteral title: String) {
        self.init(title: LocalizedStringResource(stringLiteral: title))
    }

    /// A representation whose title is an interpolated string.
    public init(stringInterpolation: String.LocalizationValue.StringInterpolation) {
        self.init(title: LocalizedStringResource(stringInterpolation: stringInterpolation))
    }

    /// A reference to the picture shown with a value.
    public struct Image: Sendable, Hashable {
        /// Where the picture comes from.
        public enum Source: Sendable, Hashable {
            /// A file on this machine, by absolute path.
            case file(path: String)
            /// A resource of the app, or a system symbol, by name.
            case named(String)
            /// Encoded image bytes (PNG or JPEG).
            case data([UInt8])
        }

        /// Where the picture comes from.
        public var source: Source
        /// Whether the picture is a template that the system tints.
        public var isTemplate: Bool

        /// A picture stored in a file at an absolute path.
        public init(filePath: String, isTemplate: Bool = false) {
            source = .file(path: filePath)
            self.isTemplate = isTemplate
        }

        /// A picture known by name among the app's resources.
        public init(named name: String, isTemplate: Bool = false) {
            source = .named(name)
            self.isTemplate = isTemplate
        }

        /// A system symbol, by name (kept as a name: Linux has no symbol images to draw).
        public init(systemName: String, isTemplate: Bool = false) {
            source = .named(systemName)
            self.isTemplate = isTemplate
        }

        /// A picture given as encoded bytes.
        public init(data: Data, isTemplate: Bool = false) {
            source = .data(Array(data))
            self.isTemplate = isTemplate
        }

        /// A picture given as encoded bytes.
        public init(data: [UInt8], isTemplate: Bool = false) {
            source = .data(data)
            self.isTemplate = isTemplate
        }

        /// A picture at a URL: a file URL is read as a file; any other URL is kept as a name.
        public init(url: URL, isTemplate: Bool = false) {
            source = url.isFileURL ? .file(path: url.path) : .named(url.absoluteString)
            self.isTemplate = isTemplate
        }
    }
}

/// How a kind of value is named, such as "Landmark" and "12 landmarks".
///
/// App Intents' `TypeDisplayRepresentation`: a name and an optional format for counts, written with a
/// placeholder (`"\(placeholder: .int) landmarks"`) or a `%d`-style specifier (`"%d places"`).
public struct TypeDisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The singular name of the type.
    public var name: LocalizedStringResource
    /// The format for counts, with one integer specifier standing for the number.
    public var numericFormat: LocalizedStringResource?
    /// Other names people may use for the type.
    public var synonyms: [LocalizedStringResource]

    /// Creates a type representation.
    public init(
        name: LocalizedStringResource, numericFormat: LocalizedStringResource? = nil,
        synonyms: [LocalizedStringResource] = []
    ) {
        self.name = name
        self.numericFormat = numericFormat
        self.synonyms = synonyms
    }

    /// A type representation with only a name.
    public init(stringLiteral name: String) {
        self.init(name: LocalizedStringResource(stringLiteral: name))
    }

    /// A type representation whose name is an interpolated string.
    public init(stringInterpolation: String.LocalizationValue.StringInterpolation) {
        self.init(name: LocalizedStringResource(stringInterpolation: stringInterpolation))
    }

    /// The count written with ``numericFormat`` (its first `%d`, `%ld`, `%lld` or `%i` becomes `count`),
    /// or "`count` × `name`" when there is no format.
    public func formatted(count: Int) -> String {
        guard let format = numericFormat?.defaultValue else { return "\(count) × \(name.defaultValue)" }
        for specifier in ["%lld", "%ld", "%d", "%i"] {
            if let range = format.range(of: specifier) {
                return format.replacingCharacters(in: range, with: String(count))
            }
        }
        return format
    }
}

/// A type that names itself to people: "Landmark".
public protocol TypeDisplayRepresentable {
    /// How the type as a whole is named.
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
}

/// A value that shows itself to people: a title, subtitle and image.
public protocol InstanceDisplayRepresentable {
    /// How this value is shown.
    var displayRepresentation: DisplayRepresentation { get }
}

/// A type that names itself, and whose values show themselves.
public typealias DisplayRepresentable = TypeDisplayRepresentable & InstanceDisplayRepresentable
