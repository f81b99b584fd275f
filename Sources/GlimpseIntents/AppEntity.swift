/// A value that can serve as an entity's identifier and round-trip through a string.
///
/// Like App Intents' `EntityIdentifierConvertible`: identifiers travel as strings (in cursors,
/// JSON and command lines) and are turned back into the entity's own `ID` type.
public protocol EntityIdentifierConvertible: Hashable, Sendable {
    /// The identifier written as a string.
    var entityIdentifierString: String { get }
    /// Reads an identifier back from ``entityIdentifierString``; `nil` when the string is not one.
    static func entityIdentifier(for entityIdentifierString: String) -> Self?
}

extension String: EntityIdentifierConvertible {
    /// The string itself.
    public var entityIdentifierString: String { self }
    /// The string itself.
    public static func entityIdentifier(for entityIdentifierString: String) -> String? { entityIdentifierString }
}

extension Int: EntityIdentifierConvertible {
    /// The decimal digits of the number.
    public var entityIdentifierString: String { String(self) }
    /// The number written in `entityIdentifierString`, or `nil`.
    public static func entityIdentifier(for entityIdentifierString: String) -> Int? { Int(entityIdentifierString) }
}

/// A type that describes itself to people: the counterpart of App Intents' `DisplayRepresentable`.
public protocol TypeDisplayRepresentable {
    /// How the type as a whole is named, such as "Place".
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
}

/// A thing in the app that queries can find and return: a place, a collection, a photo.
///
/// As in App Intents, an entity has a stable ``id``, a per-instance ``displayRepresentation``
/// (title, subtitle, image) and a per-type ``TypeDisplayRepresentable/typeDisplayRepresentation``.
/// Entities are values and cross task boundaries.
public protocol AppEntity: Identifiable, Sendable, TypeDisplayRepresentable where ID: EntityIdentifierConvertible {
    /// How this instance is shown: title, optional subtitle, optional image.
    var displayRepresentation: DisplayRepresentation { get }
}

extension AppEntity {
    /// The entity's identifier as a string.
    public var entityIdentifierString: String { id.entityIdentifierString }
}
