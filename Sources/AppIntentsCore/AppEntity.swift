/// A value that can serve as an entity's identifier and round-trip through a string.
///
/// App Intents' `EntityIdentifierConvertible`: identifiers travel as strings (in cursors, JSON and
/// command lines) and are turned back into the entity's own `ID` type.
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

extension UUID: EntityIdentifierConvertible {
    /// The UUID in its canonical upper-case form.
    public var entityIdentifierString: String { uuidString }
    /// The UUID written in `entityIdentifierString`, or `nil`.
    public static func entityIdentifier(for entityIdentifierString: String) -> UUID? {
        UUID(uuidString: entityIdentifierString)
    }
}

/// A thing in the app that queries can find and intents can take: a landmark, a collection, a photo.
///
/// App Intents' `AppEntity`: a stable `id` (`Identifiable`), a per-instance
/// ``InstanceDisplayRepresentable/displayRepresentation``, a per-type
/// ``TypeDisplayRepresentable/typeDisplayRepresentation``, and the ``defaultQuery`` that resolves
/// identifiers back to entities. Entities are values and cross task boundaries.
public protocol AppEntity: Identifiable, Sendable, DisplayRepresentable where ID: EntityIdentifierConvertible {
    /// The query that finds entities of this type by identifier.
    associatedtype DefaultQuery: EntityQuery
    /// The query that finds entities of this type by identifier.
    static var defaultQuery: DefaultQuery { get }
}

extension AppEntity {
    /// The entity's identifier as a string.
    public var entityIdentifierString: String { id.entityIdentifierString }
}

/// An entity that people can find in system search (Spotlight, on Apple platforms).
///
/// Adopting it changes nothing on Linux, where there is no system index; `@Property(indexingKey:)`
/// and `@ComputedProperty(indexingKey:)` record which metadata field a property would fill.
public protocol IndexedEntity: AppEntity {}

/// An entity of which there is exactly one, such as the app's settings.
public protocol UniqueAppEntity: AppEntity {}

/// A metadata field of system search that an entity property fills: `@Property(indexingKey: .title)`.
public struct IndexingKey: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The field's name.
    public var rawValue: String

    /// The field called `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The field named by the literal.
    public init(stringLiteral value: String) { rawValue = value }
    /// The field's name.
    public var description: String { rawValue }

    /// The item's title.
    public static let title: IndexingKey = "title"
    /// The item's name as shown.
    public static let displayName: IndexingKey = "displayName"
    /// A description of the item.
    public static let description: IndexingKey = "description"
    /// A description of the item's content.
    public static let contentDescription: IndexingKey = "contentDescription"
    /// Words people may search the item by.
    public static let keywords: IndexingKey = "keywords"
    /// The item's creation date.
    public static let contentCreationDate: IndexingKey = "contentCreationDate"
    /// The item's last modification date.
    public static let contentModificationDate: IndexingKey = "contentModificationDate"
    /// A place name tied to the item.
    public static let namedLocation: IndexingKey = "namedLocation"
    /// The item's city.
    public static let city: IndexingKey = "city"
    /// The item's country.
    public static let country: IndexingKey = "country"
}

/// A property of an entity that queries can filter and sort on: `@Property(title: "Name") var name: String`.
///
/// App Intents' `EntityProperty`. The projected value (`$name`) is the property itself, which
/// `EntityPropertyQuery` builders name with a key path (`Property(\.$name) { … }`). Unlike Apple's class,
/// this is a value: copying an entity copies its properties.
@propertyWrapper
public struct EntityProperty<Value> {
    private var storage: Value?
    /// The name people see for the property, such as "Name".
    public let title: LocalizedStringResource?
    /// The system-search field the property fills, if any.
    public let indexingKey: IndexingKey?

    /// A property without a value yet: the entity's initialiser sets it.
    public init(title: LocalizedStringResource? = nil, indexingKey: IndexingKey? = nil) {
        storage = nil
        self.title = title
        self.indexingKey = indexingKey
    }

    /// A property with an initial value.
    public init(wrappedValue: Value, title: LocalizedStringResource? = nil, indexingKey: IndexingKey? = nil) {
        storage = wrappedValue
        self.title = title
        self.indexingKey = indexingKey
    }

    /// The property's value. Reading an optional property that was never set gives `nil`; reading any
    /// other property before the entity's initialiser set it is a programming error and stops the program.
    public var wrappedValue: Value {
        get {
            if let storage { return storage }
            if let none = (Value.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ()) as? Value {
                return none
            }
            fatalError("the entity property \(title?.defaultValue ?? String(describing: Value.self)) was read before it was set; set every @Property in the entity's initialiser")
        }
        set { storage = newValue }
    }

    /// The property itself, for key paths such as `\.$name`.
    public var projectedValue: EntityProperty<Value> { self }
}

extension EntityProperty: Sendable where Value: Sendable {}

extension EntityProperty: Equatable where Value: Equatable {
    /// Properties are equal when their values are (titles are declarations, not data).
    public static func == (lhs: EntityProperty, rhs: EntityProperty) -> Bool { lhs.storage == rhs.storage }
}

extension EntityProperty: Hashable where Value: Hashable {
    /// Hashes the value.
    public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}

/// `@Property`: App Intents' name for ``EntityProperty`` as an attribute.
public typealias Property = EntityProperty
