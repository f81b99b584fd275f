import AppIntentsMacroDefinitions
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// The compiler plug-in holding the App Intents macros.
///
/// The compiler finds a macro by this module's name and the type's name (`#externalMacro(module:
/// "AppIntentsMacros", type: "UnionValueMacro")`), so the types it names live here and hand the work to
/// the expansions in `AppIntentsMacroDefinitions`, which the macro tests call directly.
@main
struct AppIntentsMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [UnionValueMacro.self, ComputedPropertyMacro.self]
}

/// `@UnionValue`, as the compiler names it: ``UnionValueExpansion``.
enum UnionValueMacro: ExtensionMacro {
    static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try UnionValueExpansion.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }
}

/// `@ComputedProperty`, as the compiler names it: ``ComputedPropertyExpansion``.
enum ComputedPropertyMacro: PeerMacro {
    static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try ComputedPropertyExpansion.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}
