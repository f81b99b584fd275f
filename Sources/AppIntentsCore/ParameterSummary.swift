/// How an intent reads as a sentence in the Shortcuts editor: `Summary("Order \(\.$soup)") { \.$quantity }`.
///
/// Linux has no Shortcuts editor; the summary is kept (its text with the parameters' titles, and the
/// parameters listed below it) so that intents written for Apple platforms build unchanged.
public protocol ParameterSummary: Sendable {}

/// A parameter summary of `Intent`: a sentence naming parameters, and further parameters shown below it.
public struct IntentParameterSummary<Intent>: ParameterSummary, @unchecked Sendable {
    /// The sentence, with each named parameter's key path.
    public let format: ParameterSummaryString<Intent>
    /// The parameters listed below the sentence, in order.
    public let otherParameters: [PartialKeyPath<Intent>]

    /// A summary that is only a sentence.
    public init(_ format: ParameterSummaryString<Intent>) {
        self.format = format
        otherParameters = []
    }

    /// A summary with further parameters: `Summary("Order \(\.$soup)") { \.$quantity }`.
    public init(_ format: ParameterSummaryString<Intent>,
                @ParameterSummaryBuilder<Intent> _ parameters: () -> [PartialKeyPath<Intent>]) {
        self.format = format
        otherParameters = parameters()
    }
}

/// The sentence of a parameter summary: literal text and `\(\.$parameter)` placeholders.
public struct ParameterSummaryString<Intent>: ExpressibleByStringInterpolation, @unchecked Sendable {
    /// The text with each parameter written as `${index}` in order of appearance.
    public let template: String
    /// The parameters named in the sentence, in order.
    public let parameters: [PartialKeyPath<Intent>]

    /// A sentence without parameters.
    public init(stringLiteral value: String) {
        template = value
        parameters = []
    }

    /// A sentence with parameters.
    public init(stringInterpolation: StringInterpolation) {
        template = stringInterpolation.template
        parameters = stringInterpolation.parameters
    }

    /// Collects the sentence.
    public struct StringInterpolation: StringInterpolationProtocol {
        var template = ""
        var parameters: [PartialKeyPath<Intent>] = []

        /// Reserves room.
        public init(literalCapacity: Int, interpolationCount: Int) {
            template.reserveCapacity(literalCapacity)
        }

        /// Literal text.
        public mutating func appendLiteral(_ literal: String) { template += literal }

        /// A parameter of the intent, `\(\.$soup)`.
        public mutating func appendInterpolation<Value>(_ parameter: KeyPath<Intent, IntentParameter<Value>>) {
            template += "${\(parameters.count)}"
            parameters.append(parameter)
        }
    }
}

/// Collects the parameters listed below a summary's sentence.
@resultBuilder
public enum ParameterSummaryBuilder<Intent> {
    /// One parameter, `\.$quantity`.
    public static func buildExpression<Value>(_ parameter: KeyPath<Intent, IntentParameter<Value>>) -> [PartialKeyPath<Intent>] {
        [parameter]
    }
    /// The parameters in order.
    public static func buildBlock(_ parts: [PartialKeyPath<Intent>]...) -> [PartialKeyPath<Intent>] { parts.flatMap { $0 } }
}

extension AppIntent {
    /// A parameter summary of this intent: `Summary("Order \(\.$soup)") { \.$quantity }`.
    public typealias Summary = IntentParameterSummary<Self>
}
