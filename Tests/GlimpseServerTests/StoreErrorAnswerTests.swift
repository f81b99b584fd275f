import GlimpseEngine
@testable import GlimpseServer
import GlimpseStore
import HTTPTypes
import Testing

/// How the store's errors are answered: every `503 store_unavailable` (SQLite's as well as
/// PostgreSQL's) says when to send the edit again, since it changed nothing.
@Suite("store error answers")
struct StoreErrorAnswerTests {
    static let unavailable: [StoreError] = [
        .busy(path: "/tmp/catalog.sqlite", holder: 42),
        .io(path: "/tmp/catalog.sqlite", reason: "disk I/O error"),
        .photoCache(path: "/tmp/photos", reason: "No space left on device"),
        .corrupt(path: "/tmp/catalog.sqlite", reason: "a row does not decode"),
        .schemaTooNew(path: "/tmp/catalog.sqlite", found: 9, supported: 2),
        .unavailable(reason: "no connection to postgres://glimpse@/tmp/x/.s.PGSQL.5432/glimpse within 10 s"),
    ]

    @Test(arguments: unavailable)
    func everyStoreUnavailableCarriesRetryAfter(_ error: StoreError) throws {
        for thrown in [error as any Error, LiveCatalogError.store(error)] {
            let answer = APIMiddleware.apiError(for: thrown)
            #expect(answer.status == .serviceUnavailable && answer.code == "store_unavailable")
            let seconds = try #require(answer.headers[.retryAfter].flatMap { Int($0) }, "\(error) has no Retry-After")
            #expect(seconds >= 1 && seconds <= 60)
            #expect(!answer.message.contains("/tmp"), "the answer names a host path: \(answer.message)")
        }
    }

    @Test func aLockedSQLiteStoreIsRetriedSoonerThanAFullDisk() throws {
        let busy = APIMiddleware.apiError(for: StoreError.busy(path: "/tmp/catalog.sqlite", holder: nil))
        let full = APIMiddleware.apiError(for: StoreError.photoCache(path: "/tmp/photos", reason: "No space left on device"))
        let seconds = { (error: APIError) in Int(error.headers[.retryAfter] ?? "") ?? 0 }
        #expect(seconds(busy) < seconds(full))
    }
}
