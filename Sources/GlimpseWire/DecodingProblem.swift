import Foundation

/// What is wrong with a JSON document that did not decode, as a sentence a client or a catalog author
/// can act on: the field and its place in the document, never Swift's type names or debug text.
public enum DecodingProblem {
    /// The sentence for `error`, thrown by `JSONDecoder` or by reading the document.
    public static func sentence(for error: any Error) -> String {
        switch error {
        case let DecodingError.keyNotFound(key, context):
            "missing field '\(key.stringValue)' at \(path(context.codingPath))"
        case let DecodingError.typeMismatch(type, context):
            "\(expected(type)) expected at \(path(context.codingPath))"
        case let DecodingError.valueNotFound(type, context):
            "\(expected(type)) expected at \(path(context.codingPath)), found null"
        case let DecodingError.dataCorrupted(context):
            context.codingPath.isEmpty ? "it is not valid JSON" : "a bad value at \(path(context.codingPath))"
        case let error as BoundedList:
            error.sentence
        case let error as CocoaError:
            error.localizedDescription
        default:
            "it does not decode"
        }
    }

    /// The JSON kind a Swift type is read from.
    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type, is UInt32.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "a value of another kind"
        }
    }

    /// `.places[3].id`, or `the top level` for an empty path.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top level" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}
