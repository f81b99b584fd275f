import AppIntentsMacroDefinitions
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@UnionValue` and `@ComputedProperty` expand to, and what they report, checked with swift-syntax's
/// own expansion assertions (no test package beyond swift-syntax).
struct MacroExpansionTests {
    /// The macros under test, by attribute name.
    static let macros: [String: MacroSpec] = [
        "UnionValue": MacroSpec(type: UnionValueExpansion.self),
        "ComputedProperty": MacroSpec(type: ComputedPropertyExpansion.self),
    ]

    /// Expands `source` and compares the result and the diagnostics, recording any difference as an issue
    /// at the caller's line.
    static func expect(
        _ source: String, expandsTo expanded: String, diagnostics: [DiagnosticSpec] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(
            source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macros,
            failureHandler: { failure in Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation) })
    }

    @Test func expandsAnEnumOfEntities() {
        Self.expect(
            """
            @UnionValue
            public enum VisualSearchResult {
                case landmark(LandmarkEntity)
                case collection(CollectionEntity), other(LandmarkEntity)
            }
            """,
            expandsTo: """
            public enum VisualSearchResult {
                case landmark(LandmarkEntity)
                case collection(CollectionEntity), other(LandmarkEntity)
            }

            extension VisualSearchResult: AppIntentsCore.UnionValue {
                /// The entity types the cases hold, in case order.
                public static var memberTypes: [any AppIntentsCore.AppEntity.Type] {
                    [LandmarkEntity.self, CollectionEntity.self]
                }
                /// The entity this case holds.
                public var entity: any AppIntentsCore.AppEntity {
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
            """)
    }

    @Test func keepsAnInternalEnumInternal() {
        Self.expect(
            """
            @UnionValue
            enum Result {
                case place(PlaceEntity)
            }
            """,
            expandsTo: """
            enum Result {
                case place(PlaceEntity)
            }

            extension Result: AppIntentsCore.UnionValue {
                /// The entity types the cases hold, in case order.
                static var memberTypes: [any AppIntentsCore.AppEntity.Type] {
                    [PlaceEntity.self]
                }
                /// The entity this case holds.
                var entity: any AppIntentsCore.AppEntity {
                    switch self {
                    case .place(let value):
                        value
                    }
                }
            }
            """)
    }

    @Test func reportsACaseWithoutOneEntity() {
        Self.expect(
            """
            @UnionValue
            enum Result {
                case place(PlaceEntity)
                case nothing
                case two(PlaceEntity, PlaceEntity)
            }
            """,
            expandsTo: """
            enum Result {
                case place(PlaceEntity)
                case nothing
                case two(PlaceEntity, PlaceEntity)
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "case 'nothing' of a @UnionValue enum must wrap exactly one unlabelled app entity, such as 'nothing(LandmarkEntity)'",
                    line: 4, column: 10),
                DiagnosticSpec(
                    message: "case 'two' of a @UnionValue enum must wrap exactly one unlabelled app entity, such as 'two(LandmarkEntity)'",
                    line: 5, column: 10),
            ])
    }

    @Test func reportsANonEnumAndAnEnumWithoutCases() {
        Self.expect(
            """
            @UnionValue
            struct Result {}
            """,
            expandsTo: "struct Result {}",
            diagnostics: [
                DiagnosticSpec(message: "@UnionValue applies to an enum whose cases each wrap one app entity", line: 1, column: 1)
            ])
        Self.expect(
            """
            @UnionValue
            enum Result {}
            """,
            expandsTo: "enum Result {}",
            diagnostics: [
                DiagnosticSpec(
                    message: "@UnionValue needs at least one case, such as 'case landmark(LandmarkEntity)'", line: 1, column: 1)
            ])
    }

    @Test func computedPropertyAddsNothingAndNeedsAGetter() {
        Self.expect(
            """
            struct Recipe {
                @ComputedProperty(indexingKey: .description)
                var summary: String { "soup" }
            }
            """,
            expandsTo: """
            struct Recipe {
                var summary: String { "soup" }
            }
            """)
        Self.expect(
            """
            struct Recipe {
                @ComputedProperty
                let name = "x"
            }
            """,
            expandsTo: """
            struct Recipe {
                let name = "x"
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@ComputedProperty applies to one computed property ('var summary: String { … }')", line: 2, column: 5)
            ])
    }

    @Test func aWrongExpectationIsReported() {
        // The assertion must be able to fail: a wrong expansion is recorded as an issue.
        withKnownIssue {
            Self.expect("@UnionValue\nenum Result {\n    case place(PlaceEntity)\n}", expandsTo: "enum Result {}")
        }
    }
}
