public import GlimpseImage

/// What a visual search is asked about: a picture, labels describing it, or both.
///
/// The Linux counterpart of Visual Intelligence's `SemanticContentDescriptor`: ``labels`` are
/// general, high-level terms such as `tower` or `lake` (never the name of the thing), and
/// ``pixelBuffer`` is the captured picture.
public struct SemanticContentDescriptor: Sendable {
    /// Labels that classify what is in the picture; may be empty.
    public let labels: [String]
    /// The picture, when there is one.
    public var pixelBuffer: PixelBuffer?

    /// Creates a descriptor.
    public init(labels: [String] = [], pixelBuffer: PixelBuffer? = nil) {
        self.labels = labels
        self.pixelBuffer = pixelBuffer
    }
}

/// A query that turns an input value into app values: App Intents' `IntentValueQuery`.
///
/// Glimpse's visual search is one: its input is a ``SemanticContentDescriptor`` and its results
/// are a ``UnionValue`` of places and collections.
public protocol IntentValueQuery: Sendable {
    /// What the query is given.
    associatedtype Input: Sendable
    /// What the query returns a list of.
    associatedtype Result: Sendable

    /// The values that match `input`, best first.
    func values(for input: Input) async throws -> [Result]
}

/// A value that is one of several entity types: the hand-written equivalent of a `@UnionValue` enum.
///
/// Conform an enum whose cases each wrap one ``AppEntity`` and implement ``entity``; the display
/// and identity accessors come for free.
public protocol UnionValue: Sendable {
    /// The entity types the cases can hold, in case order.
    static var memberTypes: [any AppEntity.Type] { get }
    /// The entity held by this case.
    var entity: any AppEntity { get }
}

extension UnionValue {
    /// The held entity's display representation.
    public var displayRepresentation: DisplayRepresentation { entity.displayRepresentation }
    /// The held entity's type representation.
    public var typeDisplayRepresentation: TypeDisplayRepresentation {
        type(of: entity).typeDisplayRepresentation
    }
    /// The held entity's identifier as a string.
    public var entityIdentifierString: String { entity.entityIdentifierString }
}
