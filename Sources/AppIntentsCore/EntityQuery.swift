/// Finds entities by identifier: the base query every entity type provides.
///
/// App Intents' `EntityQuery`: ``entities(for:)`` leaves out identifiers it does not know instead of
/// throwing, and ``suggestedEntities()`` offers a default list (empty unless the query provides one).
public protocol EntityQuery: Sendable {
    /// The entity type this query finds.
    associatedtype Entity: AppEntity

    /// The entities with these identifiers, in the order given; unknown identifiers are left out.
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]

    /// A short list of entities to offer when nothing has been asked for yet.
    func suggestedEntities() async throws -> [Entity]
}

extension EntityQuery {
    /// No suggestions.
    public func suggestedEntities() async throws -> [Entity] { [] }
}

/// A query that can list every entity, because there are few of them.
public protocol EnumerableEntityQuery: EntityQuery {
    /// Every entity, in a stable order.
    func allEntities() async throws -> [Entity]
}

/// A query that finds entities from free text, such as a search field or a spoken name.
public protocol EntityStringQuery: EntityQuery {
    /// The entities that match `string`, best match first.
    func entities(matching string: String) async throws -> [Entity]
}

/// The query of a ``UniqueAppEntity``: there is one entity, and ``entity()`` returns it.
public protocol UniqueAppEntityQuery: EntityQuery {
    /// The one entity's type.
    associatedtype Entity
    /// The one entity.
    func entity() async throws -> Entity
}

extension UniqueAppEntityQuery {
    /// The one entity when `identifiers` names it; nothing otherwise.
    public func entities(for identifiers: [Entity.ID]) async throws -> [Entity] {
        let only = try await entity()
        return identifiers.contains(only.id) ? [only] : []
    }

    /// The one entity.
    public func suggestedEntities() async throws -> [Entity] { [try await entity()] }
}
