import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseStore
import GlimpseIntents
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: checks the peer, turns every error into a JSON response (a wrong method
/// on an existing path into `405` with `Allow`; a query cancelled by the end of the shutdown grace into
/// `503 shutting_down` with `Retry-After`), and records request metrics.
struct APIMiddleware: RouterMiddleware {
    typealias Context = GlimpseRequestContext

    let peerPolicy: PeerPolicy
    let metrics: ServerMetrics
    let gate: QueryGate
    let routeTable: RouteTable
    /// `nil` on the Unix socket (peers are checked by ``peerPolicy``); on the TCP listener, whether the
    /// `Host` header must name a loopback host (TCP has no peer credentials, so ``peerPolicy`` does not apply).
    var checksLoopbackHost: Bool? = nil
    /// At most one overload notice per 10 s; the rest are counted in it (and every one in metrics).
    let overloadLog = LogThrottle(interval: .seconds(10))

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            if let loopbackOnly = checksLoopbackHost {
                try Self.checkHost(request, loopbackOnly: loopbackOnly)
            } else if peerPolicy.isRestricted {
                let peer = await PeerCredentials.of(context.channel)
                guard peerPolicy.allows(peer) else {
                    context.logger.warning(
                        "refused peer",
                        metadata: ["peer": "\(peer.map(\.description) ?? "unknown")"]
                    )
                    throw APIError.forbidden(peer)
                }
            }
            response = try await next(request, context)
        } catch {
            var apiError = Self.apiError(for: error)
            if error is CancellationError, gate.isStopping {
                apiError = .shuttingDown(retryAfter: gate.retryAfterSeconds)
            } else if apiError.status == .notFound, !(error is APIError) {
                let allowed = routeTable.allowedMethods(for: request.uri.path)
                if !allowed.isEmpty, !allowed.contains(request.method.rawValue) {
                    apiError = .methodNotAllowed(request.method.rawValue, allowed: allowed)
                }
            }
            if apiError.code == "overloaded" {
                let (admitted, suppressed) = overloadLog.admit()
                if admitted {
                    context.logger.notice(
                        "request refused", metadata: ["error": "\(apiError)", "similar_since_last": "\(suppressed)"]
                    )
                }
            } else if apiError.status.code >= 500, apiError.code != "cancelled" {
                context.logger.error("request failed", metadata: ["error": "\(error)"])
            } else {
                context.logger.debug("request refused", metadata: ["error": "\(apiError)"])
            }
            metrics.recordError(kind: apiError.code)
            response = apiError.makeResponse()
        }
        metrics.recordRequest(
            route: context.endpointPath ?? "unmatched",
            method: request.method.rawValue,
            status: response.status.code,
            duration: ContinuousClock.now - start
        )
        return response
    }

    /// On the TCP listener: a request must carry `Host`, and on a loopback listener a loopback one, so that
    /// a web page whose name was pointed at 127.0.0.1 (DNS rebinding) cannot read the daemon's answers.
    static func checkHost(_ request: Request, loopbackOnly: Bool) throws {
        guard let host = request.head.authority, !host.isEmpty else {
            throw APIError.badRequest("missing_host", "the request has no Host header; send one")
        }
        guard !loopbackOnly || HTTPListenerAddress.isLoopbackHostHeader(host) else {
            throw APIError(
                .misdirectedRequest, code: "not_a_loopback_host",
                message: "this listener answers requests for localhost, 127.0.0.1 or [::1] only")
        }
    }

    /// Maps any error thrown by a route to the JSON error a client receives: the one place where the
    /// domain's errors (a bad limit or cursor, an entity query that does not fit, an unknown entity type)
    /// become HTTP statuses.
    static func apiError(for error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as RequestGuardHandler.Rejection:
            return APIError(
                HTTPResponse.Status(code: error.status),
                code: "request_rejected",
                message: "the request was cut short by the server's limits"
            ).closingConnection()
        case let error as VisualSearchError:
            switch error {
            case .invalidLimit: return .badRequest("bad_limit", error.description)
            case .invalidCursor: return .badRequest("bad_cursor", error.description)
            case .expiredCursor: return APIError(.gone, code: "cursor_expired", message: error.description)
            }
        case let error as EntityQueryError:
            return .badRequest("bad_query", error.description)
        case let error as LiveCatalogError:
            switch error {
            case .store(let error): return apiError(for: error)
            case .engine:
                // Not from an edit any more: a stored edit the daemon cannot serve is answered 202.
                return APIError(
                    .serviceUnavailable, code: "edit_not_served",
                    message: "the edit is stored but this daemon cannot serve the store's state yet; it keeps "
                        + "serving the catalog before it (its log and /healthz say why)")
            }
        case let error as StoreError:
            let message = error.publicDescription
            switch error {
            case .notFound: return .notFound("no_such_entity", message)
            case .preconditionFailed: return APIError(.preconditionFailed, code: "precondition_failed", message: message)
            case .invalid, .invalidCatalog: return APIError(.unprocessableContent, code: "invalid_edit", message: message)
            case .conflict: return APIError(.conflict, code: "edit_conflict", message: message)
            case .busy:
                // Another process holds the store's write lock: it is usually released within a second.
                return storeUnavailable(message, retryAfter: 1)
            case .schemaTooNew, .corrupt, .io, .photoCache:
                // Nothing was changed; what is wrong (a full disk, a damaged file) needs an operator,
                // so a client retries at a slower pace.
                return storeUnavailable(message, retryAfter: 30)
            case .unavailable:
                // The database is down or unreachable: the daemon reconnects on its own.
                return storeUnavailable(message, retryAfter: 5)
            }
        case let error as UnknownEntityTypeError:
            return .badRequest("unknown_type", error.description)
        case is CancellationError:
            return APIError(
                .serviceUnavailable,
                code: "cancelled",
                message: "the request was cancelled because the client went away or the daemon is stopping"
            )
        case let error as any HTTPResponseError:
            let message: String
            switch error.status {
            case .notFound: message = "no such route; see docs/api.md for the routes this daemon serves"
            case .methodNotAllowed: message = "this route does not accept that method; see docs/api.md"
            default: message = "\(error)"
            }
            return APIError(error.status, code: Self.code(for: error.status), message: message)
        default:
            return APIError(.internalServerError, code: "internal", message: "internal error; the daemon's log says more")
        }
    }

    /// `503 store_unavailable` with `Retry-After`: the edit changed nothing and may be sent again.
    static func storeUnavailable(_ message: String, retryAfter seconds: Int) -> APIError {
        APIError(.serviceUnavailable, code: "store_unavailable", message: message,
                 headers: [.retryAfter: String(seconds)])
    }

    private static func code(for status: HTTPResponse.Status) -> String {
        status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
    }
}
