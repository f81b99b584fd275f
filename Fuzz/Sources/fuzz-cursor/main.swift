// Feeds continuation cursors to VisualSearchQuery.page(after:limit:) over the bundled catalog
// (Images/catalog.json; photos not needed). The first byte picks the page size and whether the rest is
// cursor text as a client sends it (forged, damaged, not base64) or a cursor body that is signed first,
// so the decoder and the ranking behind the signature check see arbitrary contents. Checks every page
// and the pages its cursor leads to (PageChecks).
import CatalogFuzzSupport
import FuzzSupport
@_spi(Fuzzing) import GlimpseCatalog

/// The query the cursors are paged with, over the bundled catalog.
enum Fixture {
    static let store = SnapshotStore(capacity: 2, cursorKey: fuzzCursorKey)
    static let query: VisualSearchQuery = {
        do {
            let catalog = try Catalog.load(directory: Repository.images, checkPhotos: false)
            return VisualSearchQuery(snapshot: store.publish(catalog), store: store)
        } catch {
            fatalError("cannot load the bundled catalog: \(error)")
        }
    }()
    /// Page sizes: the default, some valid ones, and two out of range.
    static let limits: [Int?] = [nil, 1, 3, 10, 100, 0, 101]
}

FuzzTarget.run { bytes in
    guard let mode = bytes.first else { return }
    let rest = Array(bytes.dropFirst())
    let cursor = mode & 1 == 0
        ? String(decoding: rest, as: UTF8.self) : Fixture.store.cursorKey.signedCursor(body: rest)
    let limit = Fixture.limits[Int(mode >> 1) % Fixture.limits.count]
    let page: VisualSearchPage
    do throws(VisualSearchError) {
        page = try Fixture.query.page(after: cursor, limit: limit)
    } catch {
        if case .invalidLimit = error {
            FuzzCheck.require(limit == 0 || limit == 101, "limit \(String(describing: limit)) refused")
        }
        return
    }
    FuzzCheck.require(limit != 0 && limit != 101, "limit \(String(describing: limit)) accepted")
    PageChecks.walk(page, query: Fixture.query, limit: limit)
}
