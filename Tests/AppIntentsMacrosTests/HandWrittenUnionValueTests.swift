import Foundation
import SwiftParser
import SwiftSyntax
import Testing

/// Glimpse's own union value, `VisualSearchResult` in GlimpseCatalog, carries its `UnionValue` conformance
/// written out (so that the catalog and everything above it build without swift-syntax). This test reads
/// that source file, expands `@UnionValue` on the enum as the file declares it, and expects exactly the
/// hand-written extension: a change to the enum's cases or to the macro that the file does not follow fails.
struct HandWrittenUnionValueTests {
    /// Sources/GlimpseCatalog/VisualSearchResult.swift, found from this file's place in the repository.
    static let sourcePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/GlimpseCatalog/VisualSearchResult.swift").path

    @Test func visualSearchResultIsWhatTheMacroWrites() throws {
        let tree = Parser.parse(source: try String(contentsOfFile: Self.sourcePath, encoding: .utf8))
        let declarations = tree.statements.map(\.item)
        let enumDecl = try #require(
            declarations.compactMap { $0.as(EnumDeclSyntax.self) }.first { $0.name.text == "VisualSearchResult" },
            "no enum VisualSearchResult in \(Self.sourcePath)")
        #expect(enumDecl.attributes.isEmpty, "VisualSearchResult is written out; it takes no attribute")
        let conformance = try #require(
            declarations.compactMap { $0.as(ExtensionDeclSyntax.self) }.first { extensionDecl in
                extensionDecl.extendedType.trimmedDescription == "VisualSearchResult"
                    && (extensionDecl.inheritanceClause?.inheritedTypes.contains {
                        $0.type.trimmedDescription.hasSuffix("UnionValue")
                    } ?? false)
            },
            "no `extension VisualSearchResult: AppIntentsCore.UnionValue` in \(Self.sourcePath)")
        // Leading doc comments and the comment above the extension are the file's own, not the macro's.
        let enumText = enumDecl.trimmed.description
        MacroExpansionTests.expect(
            "@UnionValue\n" + enumText,
            expandsTo: enumText + "\n\n" + conformance.trimmed.description)
    }
}
