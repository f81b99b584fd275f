/// An action the app offers: App Intents' `AppIntent`.
///
/// The caller creates the intent with `init()`, sets its `@Parameter`s, then calls ``perform()``.
/// What makes an intent appear in Siri, Shortcuts or widgets needs an Apple device and is not part
/// of this library; the type, its parameters and `perform()` run anywhere.
public protocol AppIntent: Sendable {
    /// What `perform()` returns.
    associatedtype PerformResult: IntentResult

    /// The intent's name, a verb and a noun: "Open Landmark".
    static var title: LocalizedStringResource { get }
    /// A sentence saying what the intent does (empty unless the intent gives one).
    static var description: IntentDescription { get }
    /// Whether running the intent brings the app to the foreground.
    static var openAppWhenRun: Bool { get }
    /// Whether the system may offer the intent to people.
    static var isDiscoverable: Bool { get }

    /// An intent with its parameters not yet set.
    init()

    /// Does what the intent is for.
    func perform() async throws -> PerformResult
}

extension AppIntent {
    /// No description: an empty sentence.
    public static var description: IntentDescription { IntentDescription("") }
    /// The app stays in the background.
    public static var openAppWhenRun: Bool { false }
    /// Discoverable.
    public static var isDiscoverable: Bool { true }
}

/// An intent that opens an entity in the app: App Intents' `OpenIntent`.
///
/// Declare the entity as `@Parameter(title: …) var target: SomeEntity`. Without a `perform()` of its own,
/// the intent completes with an empty result (opening the app is the system's part).
public protocol OpenIntent: AppIntent {
    /// The type of entity opened.
    associatedtype Value
    /// The entity to open.
    var target: Value { get set }
}

extension OpenIntent {
    /// The app opens the intent's target; there is nothing else to return.
    public func perform() async throws -> some IntentResult { .result() }
    /// Opening an entity brings the app forward.
    public static var openAppWhenRun: Bool { true }
}

/// A sentence describing an intent: App Intents' `IntentDescription`.
public struct IntentDescription: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The description.
    public var descriptionText: LocalizedStringResource
    /// The category the intent is listed under.
    public var categoryName: LocalizedStringResource?
    /// Words people may search the intent by.
    public var searchKeywords: [LocalizedStringResource]

    /// A description.
    public init(
        _ descriptionText: LocalizedStringResource, categoryName: LocalizedStringResource? = nil,
        searchKeywords: [LocalizedStringResource] = []
    ) {
        self.descriptionText = descriptionText
        self.categoryName = categoryName
        self.searchKeywords = searchKeywords
    }

    /// A description from a literal.
    public init(stringLiteral value: String) { self.init(LocalizedStringResource(stringLiteral: value)) }

    /// A description from an interpolated literal.
    public init(stringInterpolation: String.LocalizationValue.StringInterpolation) {
        self.init(LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}

/// What an intent says to the person: App Intents' `IntentDialog`, `"Which landmark?"`.
public struct IntentDialog: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The full text, as shown or spoken.
    public var fullDialog: LocalizedStringResource
    /// A shorter text for small screens, when there is one.
    public var supportingDialog: LocalizedStringResource?

    /// A dialog.
    public init(_ fullDialog: LocalizedStringResource, supporting: LocalizedStringResource? = nil) {
        self.fullDialog = fullDialog
        supportingDialog = supporting
    }

    /// A dialog from a literal.
    public init(stringLiteral value: String) { self.init(LocalizedStringResource(stringLiteral: value)) }

    /// A dialog from an interpolated literal.
    public init(stringInterpolation: String.LocalizationValue.StringInterpolation) {
        self.init(LocalizedStringResource(stringInterpolation: stringInterpolation))
    }

    /// The full text.
    public var description: String { fullDialog.defaultValue }
}

/// What `perform()` returns: App Intents' `IntentResult`, made with `.result()`, `.result(dialog:)`,
/// `.result(value:)` or `.result(value:dialog:)`.
public protocol IntentResult: Sendable {
    /// What the person is told, if anything.
    var dialog: IntentDialog? { get }
}

/// A result that hands a value back to the caller: `some IntentResult & ReturnsValue<String>`.
public protocol ReturnsValue<Value>: IntentResult {
    /// The type of the value returned.
    associatedtype Value
    /// The value returned.
    var value: Value { get }
}

/// A result without a value.
public struct IntentResultContainer: IntentResult {
    /// What the person is told, if anything.
    public let dialog: IntentDialog?
}

/// A result with a value.
public struct IntentValueResultContainer<Value: Sendable>: ReturnsValue {
    /// The value returned.
    public let value: Value
    /// What the person is told, if anything.
    public let dialog: IntentDialog?
}

extension IntentResult where Self == IntentResultContainer {
    /// A result with nothing to say or return.
    public static func result() -> IntentResultContainer { IntentResultContainer(dialog: nil) }
    /// A result that tells the person `dialog`.
    public static func result(dialog: IntentDialog) -> IntentResultContainer { IntentResultContainer(dialog: dialog) }
}

extension IntentResult {
    /// A result that returns `value`.
    public static func result<Value: Sendable>(value: Value) -> Self where Self == IntentValueResultContainer<Value> {
        IntentValueResultContainer(value: value, dialog: nil)
    }
    /// A result that returns `value` and tells the person `dialog`.
    public static func result<Value: Sendable>(value: Value, dialog: IntentDialog) -> Self
    where Self == IntentValueResultContainer<Value> {
        IntentValueResultContainer(value: value, dialog: dialog)
    }
}
