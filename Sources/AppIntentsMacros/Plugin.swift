import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plug-in holding the App Intents macros.
@main
struct AppIntentsMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [UnionValueMacro.self, ComputedPropertyMacro.self]
}
