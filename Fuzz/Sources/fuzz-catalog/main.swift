// Feeds catalog.json contents to Catalog(json:directory:checkPhotos:) (photos are not looked for), then
// uses a catalog that loads as the daemon does: a snapshot, a label search paged to its end
// (PageChecks), and a text search over places and collections answered as the daemon's JSON and as text.
import CatalogFuzzSupport
import FuzzSupport
import GlimpseCatalog
import GlimpseIntents
import GlimpseWire

FuzzTarget.run { bytes in
    let catalog: Catalog
    do throws(CatalogError) {
        catalog = try Catalog(json: bytes, directory: "/nonexistent/glimpse-fuzz", checkPhotos: false)
    } catch {
        FuzzCheck.require(!error.description.isEmpty, "an error without a description")
        return
    }
    for (offset, place) in catalog.places.enumerated() {
        FuzzCheck.require(catalog.placeOffset(id: place.id) == offset, "place \(place.id) is not found by id")
    }
    for (offset, collection) in catalog.collections.enumerated() {
        FuzzCheck.require(catalog.collectionOffset(id: collection.id) == offset,
                          "collection \(collection.id) is not found by id")
    }
    let store = SnapshotStore(capacity: 1, cursorKey: fuzzCursorKey)
    let query = VisualSearchQuery(snapshot: store.publish(catalog), store: store)
    let labels = Array(catalog.labels.prefix(3)) + (catalog.places.first?.labels ?? []) + ["not-a-label"]
    let result = runBlocking { () -> Result<VisualSearchPage, any Error> in
        do { return .success(try await query.search(SemanticContentDescriptor(labels: labels), limit: 4)) } catch {
            return .failure(error)
        }
    }
    switch result {
    case .success(let page): PageChecks.walk(page, query: query, limit: 4)
    case .failure(let error): fatalError("fuzz check failed: a label search failed: \(error)")
    }
    let text = catalog.places.first.map { String($0.name.prefix(3)) } ?? "a"
    EntityChecks.check(EntityListJSON(entities: catalog.searchEntities(text)), limit: nil)
}
