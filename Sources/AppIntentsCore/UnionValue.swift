/// A value that is one of several entity types: an enum marked `@UnionValue` whose cases each wrap one
/// ``AppEntity``.
///
/// The macro (declared in the `AppIntents` module) writes ``memberTypes`` and ``entity``; code that
/// cannot use macros writes the same two members by hand. The display and identity accessors follow
/// from them.
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
