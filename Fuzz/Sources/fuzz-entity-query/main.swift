// Feeds the two entity requests of the daemon over part of the bundled catalog (Images/catalog.json):
// the input as the JSON body of POST /v1/entities/{type}/query, decoded as the route does and run for
// places and for collections (Catalog.entities(of:matching:)), and as the text of GET /v1/entities?q=
// (Catalog.searchEntities). Every answer is checked as the daemon would send it (EntityChecks).
import CatalogFuzzSupport
import Foundation
import FuzzSupport
import GlimpseCatalog
import GlimpseIntents
import GlimpseWire

/// The first 12 places of the bundled catalog: text search folds every field of every entity per query,
/// so the whole catalog would spend most of each run on the same text.
let catalog = BundledCatalog.catalog(firstPlaces: 12)

/// The largest `limit` the daemon accepts by default (ServerLimits.maxResultLimit).
let maxResultLimit = 100

FuzzTarget.run { bytes in
    EntityChecks.check(EntityListJSON(entities: catalog.searchEntities(String(decoding: bytes, as: UTF8.self))),
                       limit: nil)
    guard let query = try? JSONDecoder().decode(PropertyQueryJSON.self, from: Data(bytes)) else { return }
    // The route refuses other limits before running the query.
    if let limit = query.limit, limit < 1 || limit > maxResultLimit { return }
    for type in CatalogEntityType.allCases {
        do throws(EntityQueryError) {
            EntityChecks.check(EntityListJSON(entities: try catalog.entities(of: type, matching: query)),
                               limit: query.limit)
        } catch {
            FuzzCheck.require(!error.description.isEmpty, "an error without a description")
        }
    }
}
