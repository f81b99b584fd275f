/// An input of an intent: `@Parameter(title: "Landmark", requestValueDialog: "Which landmark?") var target: LandmarkEntity`.
///
/// App Intents' `IntentParameter`. Like Apple's, it is a reference: setting a parameter on an intent held
/// in a `let` (`intent.soup = …`) sets it for every copy of the intent. Reading a parameter that has no
/// value and no default is a programming error and stops the program; an optional parameter reads `nil`.
@propertyWrapper
public final class IntentParameter<Value>: @unchecked Sendable {
    /// The parameter's name as people see it.
    public let title: LocalizedStringResource
    /// A sentence explaining the parameter.
    public let description: LocalizedStringResource?
    /// What the system asks when it needs a value.
    public let requestValueDialog: IntentDialog?
    /// The value used when none is set.
    public let defaultValue: Value?
    /// How a number is entered: a field, a slider or a stepper.
    public let controlStyle: ParameterControlStyle
    /// The smallest and largest value accepted, for numbers.
    public let inclusiveRange: (Value, Value)?
    private let lock = NSLock()
    private var storage: Value?

    /// A parameter.
    public init(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value? = nil,
        controlStyle: ParameterControlStyle = .field, inclusiveRange: (Value, Value)? = nil,
        requestValueDialog: IntentDialog? = nil
    ) {
        self.title = title
        self.controlStyle = controlStyle
        self.inclusiveRange = inclusiveRange
        self.description = description
        self.requestValueDialog = requestValueDialog
        self.defaultValue = defaultValue
        storage = nil
    }

    /// A parameter with an initial value.
    public convenience init(
        wrappedValue: Value, title: LocalizedStringResource, description: LocalizedStringResource? = nil,
        requestValueDialog: IntentDialog? = nil
    ) {
        self.init(title: title, description: description, default: wrappedValue, requestValueDialog: requestValueDialog)
    }

    /// The parameter's value: the one set, else the default, else `nil` for an optional parameter.
    public var wrappedValue: Value {
        get {
            if let value = lock.withLock({ storage }) ?? defaultValue { return value }
            if let none = (Value.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ()) as? Value {
                return none
            }
            fatalError("the intent parameter '\(title.defaultValue)' was read before it was set; set it or give it a default")
        }
        set { lock.withLock { storage = newValue } }
    }

    /// Whether a value was set (a default does not count).
    public var hasValue: Bool { lock.withLock { storage != nil } }

    /// The parameter itself, for `\.$target`.
    public var projectedValue: IntentParameter<Value> { self }
}

/// How a numeric parameter is entered.
public enum ParameterControlStyle: Sendable, Hashable {
    /// A text field.
    case field
    /// A slider over the parameter's range.
    case slider
    /// A stepper.
    case stepper
}

/// `@Parameter`: App Intents' name for ``IntentParameter`` as an attribute.
public typealias Parameter = IntentParameter
