import Foundation
import FuzzSupport
import GlimpseTerminalText
public import GlimpseWire

/// What the catalog and entity-query targets check of every entity list: at most `limit` entities,
/// finite scores, and the daemon's JSON of it encodes.
public enum EntityChecks {
    /// Checks `list`, answered to a request for at most `limit` entities (`nil`: no limit).
    public static func check(_ list: EntityListJSON, limit: Int?) {
        if let limit { FuzzCheck.require(list.entities.count <= limit, "\(list.entities.count) entities, limit \(limit)") }
        for entity in list.entities {
            FuzzCheck.require(entity.score.map(\.isFinite) ?? true, "entity \(entity.id) scores \(String(describing: entity.score))")
        }
        do {
            _ = try JSONEncoder().encode(list)
        } catch {
            fatalError("fuzz check failed: the entity list's JSON does not encode: \(error)")
        }
        FuzzCheck.require(!list.text().isEmpty, "an empty text listing")
    }
}
