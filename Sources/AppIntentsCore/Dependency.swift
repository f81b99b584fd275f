import Synchronization

/// Where intents and queries find the app's shared objects: App Intents' `AppDependencyManager`.
///
/// Register each object once at start (`AppDependencyManager.shared.add(dependency: modelData)`); a
/// `@Dependency var modelData: ModelData` then reads it. The object is made when first read.
public final class AppDependencyManager: Sendable {
    /// The manager every `@Dependency` reads from.
    public static let shared = AppDependencyManager()

    /// A registration's type and key; the key was `any Hashable & Sendable` before it was wrapped.
    private struct Key: Hashable, @unchecked Sendable {
        let type: ObjectIdentifier
        let name: AnyHashable?
    }

    private final class Slot: Sendable {
        let make: @Sendable () -> any Sendable
        let value: Mutex<(any Sendable)?> = Mutex(nil)
        init(make: @escaping @Sendable () -> any Sendable) { self.make = make }

        func resolve() -> any Sendable {
            value.withLock { cached in
                if let cached { return cached }
                let made = make()
                cached = made
                return made
            }
        }
    }

    private let slots = Mutex<[Key: Slot]>([:])

    /// A manager of its own (tests); apps use ``shared``.
    public init() {}

    /// Registers `dependency` for its type, under `key` when several of one type are needed. A later
    /// registration of the same type and key replaces the earlier one.
    public func add<Dependency: Sendable>(
        key: (any Hashable & Sendable)? = nil, dependency: @autoclosure @escaping @Sendable () -> Dependency
    ) {
        let slot = Slot(make: dependency)
        slots.withLock { $0[Key(type: ObjectIdentifier(Dependency.self), name: key.map { AnyHashable($0) })] = slot }
    }

    /// The registered object of type `Dependency` (under `key`), or `nil` when none was registered.
    public func resolve<Dependency: Sendable>(_ type: Dependency.Type = Dependency.self,
                                              key: (any Hashable & Sendable)? = nil) -> Dependency? {
        let slot = slots.withLock { $0[Key(type: ObjectIdentifier(Dependency.self), name: key.map { AnyHashable($0) })] }
        return slot?.resolve() as? Dependency
    }
}

/// An object an intent or query uses, registered with ``AppDependencyManager``: `@Dependency var modelData: ModelData`.
///
/// Reading it before the object was registered is a programming error and stops the program with a
/// message naming the type.
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
    private let key: (any Hashable & Sendable)?
    private let manager: AppDependencyManager

    /// The object registered for `Value` in the shared manager.
    public init() {
        key = nil
        manager = .shared
    }

    /// The object registered for `Value` under `key` in the shared manager.
    public init(key: any Hashable & Sendable) {
        self.key = key
        manager = .shared
    }

    /// The object registered for `Value` in `manager`.
    public init(manager: AppDependencyManager) {
        key = nil
        self.manager = manager
    }

    /// The registered object.
    public var wrappedValue: Value {
        guard let value = manager.resolve(Value.self, key: key) else {
            fatalError("no dependency of type \(Value.self) is registered; call AppDependencyManager.shared.add(dependency:) at start")
        }
        return value
    }
}
