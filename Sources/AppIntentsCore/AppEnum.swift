/// A fixed set of values people choose from, such as a size: App Intents' `AppEnum`.
///
/// An enum with a `LosslessStringConvertible` raw value (a `String`), a name for the type and a display
/// representation for each case.
public protocol AppEnum: RawRepresentable, CaseIterable, Hashable, Sendable, TypeDisplayRepresentable
where RawValue: LosslessStringConvertible {
    /// How each case is shown.
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
    /// This case's display representation, or its raw value as the title when none is declared.
    public var displayRepresentation: DisplayRepresentation {
        Self.caseDisplayRepresentations[self]
            ?? DisplayRepresentation(title: LocalizedStringResource(stringLiteral: rawValue.description))
    }
}
