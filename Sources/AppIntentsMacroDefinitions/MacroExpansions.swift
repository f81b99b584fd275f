public import SwiftSyntax
public import SwiftSyntaxMacros
import SwiftDiagnostics
import SwiftSyntaxBuilder

/// What `@UnionValue` expands to: makes an enum whose cases each wrap one app entity conform to `UnionValue`.
///
/// It adds `memberTypes` (the wrapped types in case order, each once) and `entity` (the wrapped value),
/// with the enum's own access level. The names are qualified with AppIntentsCore, the module that declares
/// them (`import AppIntents` re-exports it), so that a user's own `UnionValue` or `AppEntity` cannot
/// capture them. A declaration that is not an enum, an enum without cases, or a case
/// that does not wrap exactly one unlabelled value is reported at the offending line.
public enum UnionValueExpansion: ExtensionMacro {
    /// The extension that conforms the enum to `UnionValue`, or diagnostics at the lines that prevent it.
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let enumDecl = declaration.as(EnumDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: UnionValueDiagnostic.notAnEnum))
            return []
        }
        var cases: [(name: String, type: String)] = []
        var valid = true
        for member in enumDecl.memberBlock.members {
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                let parameters = element.parameterClause?.parameters
                guard let parameters, parameters.count == 1, let parameter = parameters.first,
                      parameter.firstName == nil || parameter.firstName?.tokenKind == .wildcard
                else {
                    context.diagnose(Diagnostic(
                        node: element, message: UnionValueDiagnostic.caseNeedsOneEntity(element.name.text)))
                    valid = false
                    continue
                }
                cases.append((element.name.text, parameter.type.trimmedDescription))
            }
        }
        guard valid else { return [] }
        guard !cases.isEmpty else {
            context.diagnose(Diagnostic(node: node, message: UnionValueDiagnostic.noCases))
            return []
        }
        let access = enumDecl.modifiers.first { modifier in
            ["public", "package", "internal", "open"].contains(modifier.name.text)
        }.map { ($0.name.text == "open" ? "public" : $0.name.text) + " " } ?? ""
        var seen = Set<String>()
        let types = cases.map(\.type).filter { seen.insert($0).inserted }.map { "\($0).self" }.joined(separator: ", ")
        let switchCases = cases.map { "case .\($0.name)(let value): value" }.joined(separator: "\n")
        let decl: DeclSyntax = """
            extension \(type.trimmed): AppIntentsCore.UnionValue {
                /// The entity types the cases hold, in case order.
                \(raw: access)static var memberTypes: [any AppIntentsCore.AppEntity.Type] { [\(raw: types)] }
                /// The entity this case holds.
                \(raw: access)var entity: any AppIntentsCore.AppEntity {
                    switch self {
                    \(raw: switchCases)
                    }
                }
            }
            """
        guard let extensionDecl = decl.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }
}

/// What `@ComputedProperty` expands to: it marks a computed entity property for system search; it adds no code on Linux.
public enum ComputedPropertyExpansion: PeerMacro {
    /// No peers: the attribute only marks the property; a declaration that is not one computed property
    /// with a getter is reported at the attribute.
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self),
              variable.bindings.count == 1,
              variable.bindings.first?.accessorBlock != nil
        else {
            context.diagnose(Diagnostic(node: node, message: UnionValueDiagnostic.computedPropertyNeedsGetter))
            return []
        }
        return []
    }
}

/// What the App Intents macros report.
enum UnionValueDiagnostic: DiagnosticMessage {
    case notAnEnum
    case noCases
    case caseNeedsOneEntity(String)
    case computedPropertyNeedsGetter

    var message: String {
        switch self {
        case .notAnEnum:
            "@UnionValue applies to an enum whose cases each wrap one app entity"
        case .noCases:
            "@UnionValue needs at least one case, such as 'case landmark(LandmarkEntity)'"
        case .caseNeedsOneEntity(let name):
            "case '\(name)' of a @UnionValue enum must wrap exactly one unlabelled app entity, such as '\(name)(LandmarkEntity)'"
        case .computedPropertyNeedsGetter:
            "@ComputedProperty applies to one computed property ('var summary: String { … }')"
        }
    }

    var diagnosticID: MessageID {
        switch self {
        case .notAnEnum: MessageID(domain: "AppIntentsMacros", id: "notAnEnum")
        case .noCases: MessageID(domain: "AppIntentsMacros", id: "noCases")
        case .caseNeedsOneEntity: MessageID(domain: "AppIntentsMacros", id: "caseNeedsOneEntity")
        case .computedPropertyNeedsGetter: MessageID(domain: "AppIntentsMacros", id: "computedPropertyNeedsGetter")
        }
    }

    var severity: DiagnosticSeverity { .error }
}
