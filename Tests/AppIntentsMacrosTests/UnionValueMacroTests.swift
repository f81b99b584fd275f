import AppIntentsMacros
import MacroTesting
import Testing

/// What `@UnionValue` and `@ComputedProperty` expand to, and what they report.
@Suite(.macros(["UnionValue": UnionValueMacro.self, "ComputedProperty": ComputedPropertyMacro.self]))
struct UnionValueMacroTests {
    @Test func expandsAnEnumOfEntities() {
        assertMacro {
            """
            @UnionValue
            public enum VisualSearchResult {
                case landmark(LandmarkEntity)
                case collection(CollectionEntity), other(LandmarkEntity)
            }
            """
        } expansion: {
            """
            public enum VisualSearchResult {
                case landmark(LandmarkEntity)
                case collection(CollectionEntity), other(LandmarkEntity)
            }

            extension VisualSearchResult: AppIntents.UnionValue {
                /// The entity types the cases hold, in case order.
                public static var memberTypes: [any AppIntents.AppEntity.Type] {
                    [LandmarkEntity.self, CollectionEntity.self]
                }
                /// The entity this case holds.
                public var entity: any AppIntents.AppEntity {
                    switch self {
                    case .landmark(let value):
                        value
                    case .collection(let value):
                        value
                    case .other(let value):
                        value
                    }
                }
            }
            """
        }
    }

    @Test func keepsAnInternalEnumInternal() {
        assertMacro {
            """
            @UnionValue
            enum Result {
                case place(PlaceEntity)
            }
            """
        } expansion: {
            """
            enum Result {
                case place(PlaceEntity)
            }

            extension Result: AppIntents.UnionValue {
                /// The entity types the cases hold, in case order.
                static var memberTypes: [any AppIntents.AppEntity.Type] {
                    [PlaceEntity.self]
                }
                /// The entity this case holds.
                var entity: any AppIntents.AppEntity {
                    switch self {
                    case .place(let value):
                        value
                    }
                }
            }
            """
        }
    }

    @Test func reportsACaseWithoutOneEntity() {
        assertMacro {
            """
            @UnionValue
            enum Result {
                case place(PlaceEntity)
                case nothing
                case two(PlaceEntity, PlaceEntity)
            }
            """
        } diagnostics: {
            """
            @UnionValue
            enum Result {
                case place(PlaceEntity)
                case nothing
                     ┬──────
                     ╰─ 🛑 case 'nothing' of a @UnionValue enum must wrap exactly one unlabelled app entity, such as 'nothing(LandmarkEntity)'
                case two(PlaceEntity, PlaceEntity)
                     ┬────────────────────────────
                     ╰─ 🛑 case 'two' of a @UnionValue enum must wrap exactly one unlabelled app entity, such as 'two(LandmarkEntity)'
            }
            """
        }
    }

    @Test func reportsANonEnumAndAnEnumWithoutCases() {
        assertMacro {
            """
            @UnionValue
            struct Result {}
            """
        } diagnostics: {
            """
            @UnionValue
            ┬──────────
            ╰─ 🛑 @UnionValue applies to an enum whose cases each wrap one app entity
            struct Result {}
            """
        }
        assertMacro {
            """
            @UnionValue
            enum Result {}
            """
        } diagnostics: {
            """
            @UnionValue
            ┬──────────
            ╰─ 🛑 @UnionValue needs at least one case, such as 'case landmark(LandmarkEntity)'
            enum Result {}
            """
        }
    }

    @Test func computedPropertyAddsNothingAndNeedsAGetter() {
        assertMacro {
            """
            struct Recipe {
                @ComputedProperty(indexingKey: .description)
                var summary: String { "soup" }
            }
            """
        } expansion: {
            """
            struct Recipe {
                var summary: String { "soup" }
            }
            """
        }
        assertMacro {
            """
            struct Recipe {
                @ComputedProperty
                let name = "x"
            }
            """
        } diagnostics: {
            """
            struct Recipe {
                @ComputedProperty
                ┬────────────────
                ╰─ 🛑 @ComputedProperty applies to one computed property ('var summary: String { … }')
                let name = "x"
            }
            """
        }
    }
}
