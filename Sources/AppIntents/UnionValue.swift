/// A value that is one of several entity types: an enum marked `@UnionValue` whose cases each wrap one
/// ``AppEntity``.
///
/// The macro writes ``memberTypes`` and ``entity``; the display and identity accessors follow from them.
/// An `IntentValueQuery` returns such values when it finds more than one kind of entity.
public protocol UnionValue: Sendable {
    /// The entity types the cases hold, in case order.
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

/// Makes an enum whose cases each wrap one app entity a ``UnionValue``:
///
/// ```swift
/// @UnionValue
/// enum VisualSearchResult {
///     case landmark(LandmarkEntity)
///     case collection(CollectionEntity)
/// }
/// ```
///
/// The macro checks that every case has exactly one associated value and adds the conformance.
@attached(extension, conformances: UnionValue, names: named(memberTypes), named(entity))
public macro UnionValue() = #externalMacro(module: "AppIntentsMacros", type: "UnionValueMacro")

/// A query that turns an input value into app values: App Intents' `IntentValueQuery`.
///
/// Visual intelligence calls one whose input is a `SemanticContentDescriptor` and whose results are
/// entities or a ``UnionValue`` of them.
public protocol IntentValueQuery: Sendable {
    /// What the query is given.
    associatedtype Input
    /// What the query returns a list of.
    associatedtype Result

    /// The values that match `input`, best first.
    func values(for input: Input) async throws -> [Result]
}
