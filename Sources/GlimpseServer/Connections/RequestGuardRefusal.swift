import NIOHTTP1
import NIOHTTPTypesHTTP1

extension RequestGuardState {
    /// Why the guard cut a request short; each has its documented JSON error (``apiError(limits:)``).
    enum Refusal: Equatable {
        /// `413`: the body declares (`Content-Length`) or reaches more than the body limit (`nil`: it
        /// grew past it without a declared length); `advice` says what to send instead, from the body's
        /// declared `Content-Type` when the head is refused.
        case bodyTooLarge(declared: Int?, advice: APIError.BodyAdvice = .unknown)
        /// `413`: a chunk declares a size that takes the body past the limit (`nil`: past 2^64 - 1).
        case chunkTooLarge(declared: UInt64?)
        /// `408`: the request head did not arrive within the head deadline of its first byte.
        case headTimeout
        /// `408`: the request body did not arrive within the request deadline.
        case bodyTimeout
        /// `400`: the request head is larger than the head limit.
        case headTooLarge
        /// `400`: the input is not HTTP/1.1; `detail` says what was wrong with it.
        case malformed(String)

        /// The refusal for an error the HTTP decoder (or the conversion to HTTP types) raised; `nil` for
        /// any other error.
        init?(decoderError error: any Error) {
            switch error {
            case let parserError as HTTPParserError:
                if case .headerOverflow = parserError {
                    self = .headTooLarge
                } else {
                    self = .malformed(Self.describe(parserError))
                }
            case let conversionError as HTTP1TypeConversionError:
                _ = conversionError
                self = .malformed("a request head that does not convert to HTTP (a bad method, path or header field)")
            default:
                return nil
            }
        }

        /// The error the client is sent, with `Connection: close`.
        func apiError(limits: Limits) -> APIError {
            switch self {
            case .bodyTooLarge(let declared, let advice): .bodyTooLarge(limit: limits.maxBodyBytes, declared: declared, advice: advice)
            case .chunkTooLarge(let declared): .chunkTooLarge(limit: limits.maxBodyBytes, declared: declared)
            case .headTimeout: .headerTimeout(deadline: limits.headerTimeout)
            case .bodyTimeout: .requestTimeout(deadline: limits.requestDeadline)
            case .headTooLarge: .headerTooLarge(limit: limits.maxHeaderBytes)
            case .malformed(let detail): .malformedRequest(detail)
            }
        }

        private static func describe(_ error: HTTPParserError) -> String {
            switch error {
            case .invalidContentLength, .unexpectedContentLength: "a bad Content-Length"
            case .invalidMethod: "an unknown method"
            case .invalidURL: "a bad request target"
            case .invalidVersion: "a bad HTTP version"
            case .invalidHeaderToken, .invalidConstant: "a malformed request line or header field"
            case .invalidChunkSize: "a bad chunk size"
            default: "a request that is not valid HTTP/1.1"
            }
        }
    }
}
