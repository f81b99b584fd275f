// The App Intents macros. They live apart from the types (AppIntentsCore) because a module that declares
// a macro makes every module above it build the macro's plug-in, and with it swift-syntax.

/// Makes an enum whose cases each wrap one app entity a `UnionValue`:
///
/// ```swift
/// @UnionValue
/// enum VisualSearchResult {
///     case landmark(LandmarkEntity)
///     case collection(CollectionEntity)
/// }
/// ```
///
/// The macro checks that every case has exactly one associated value and adds the conformance: an
/// extension with `memberTypes` and `entity`.
@attached(extension, conformances: UnionValue, names: named(memberTypes), named(entity))
public macro UnionValue() = #externalMacro(module: "AppIntentsMacros", type: "UnionValueMacro")

/// Marks a computed entity property as queryable and indexable: `@ComputedProperty(indexingKey: .description)`.
///
/// It adds nothing to the property on Linux (there is no system index to fill); it exists so that
/// entity code written for Apple platforms compiles unchanged.
@attached(peer)
public macro ComputedProperty(title: LocalizedStringResource? = nil, indexingKey: IndexingKey? = nil)
    = #externalMacro(module: "AppIntentsMacros", type: "ComputedPropertyMacro")
