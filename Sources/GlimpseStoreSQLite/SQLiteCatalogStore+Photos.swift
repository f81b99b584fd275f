import Foundation
public import GlimpseCatalog
import GlimpseFiles
public import GlimpseStore
import GRDB

extension SQLiteCatalogStore {
    /// The folder beside the database where photos are materialised as `<sha256>.<ext>` files
    /// (``PhotoFolder``): a cache, read-only, rebuilt from the database when missing.
    public var photoFolder: String { path + ".photos" }

    /// The store's catalog as the engine loads it: read with the features stored under `featuresKey`,
    /// photos materialised, and validated into a ``Catalog`` whose photo paths point into ``photoFolder``
    /// and whose snapshot identity is the store's id and sequence.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read or the photos written,
    ///   ``StoreError/invalidCatalog(_:)`` when the stored catalog does not validate.
    public func loadCatalog(featuresKey: String?) async throws(StoreError) -> (stored: StoredCatalog, catalog: Catalog) {
        let stored = try await read(featuresKey: featuresKey)
        try await PhotoFolder(path: photoFolder).materialize(stored.places, from: self)
        do throws(CatalogError) {
            return (stored, try stored.catalog(photoFolder: photoFolder, checkPhotos: true))
        } catch {
            throw .invalidCatalog(error)
        }
    }

    /// Checks the whole store: SQLite's full integrity check, every photo's bytes against its SHA-256,
    /// every photo's features (present and decodable, and stored under `featuresKey` when one is given),
    /// every row as a daemon reads it (content addresses, text, the catalog's rules), and the photo
    /// cache's files against the photos' hashes.
    ///
    /// - Returns: one sentence per problem found; empty when the store is sound.
    public func check(featuresKey: String?) async throws(StoreError) -> [String] {
        var problems = try await databaseProblems(featuresKey: featuresKey)
        do throws(StoreError) {
            let stored = try await read(featuresKey: nil)
            do throws(CatalogError) {
                _ = try stored.catalog(photoFolder: photoFolder)
            } catch {
                problems.append("the catalog a daemon would load is refused: \(error.description)")
            }
            problems += PhotoFolder(path: photoFolder).problems(places: stored.places)
        } catch {
            problems.append("a daemon could not read the store: \(error.description)")
        }
        return problems
    }

    private func databaseProblems(featuresKey: String?) async throws(StoreError) -> [String] {
        try await read { db in
            var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                .map { "integrity check: \($0)" }
            let rows = try Row.fetchCursor(db, sql: "SELECT sha256, bytes, byte_count, features, features_key FROM photo_contents")
            while let row = try rows.next() {
                let sha: String = row[0]
                guard StoredPhoto.isContentAddress(sha) else {
                    problems.append("a photo's SHA-256 is not 64 hexadecimal digits (a damaged or forged row)")
                    continue
                }
                let bytes = [UInt8](row[1] as Data)
                if SHA256.hex(SHA256.hash(bytes)) != sha { problems.append("photo \(sha): its bytes do not match its SHA-256") }
                if bytes.count != row[2] as Int { problems.append("photo \(sha): its recorded size is wrong") }
                guard let blob = row[3] as Data? else {
                    problems.append("photo \(sha): no features stored")
                    continue
                }
                if let featuresKey, row[4] as String? != featuresKey {
                    problems.append("photo \(sha): features made with other settings or another feature-print model")
                }
                if let problem = EncodedFeatures(bytes: [UInt8](blob)).framingProblem {
                    problems.append("photo \(sha): its stored features are unusable (\(problem))")
                }
            }
            let orphans = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM places WHERE NOT EXISTS "
                + "(SELECT 1 FROM photos WHERE photos.place_id = places.id)") ?? 0
            if orphans > 0 { problems.append("\(orphans) places have no photo") }
            return problems
        }
    }

    /// Counts for `glimpse catalog show`: places, photos, collections, labels, changes and stored bytes.
    public func counts() async throws(StoreError) -> [String: Int64] {
        try await read { db in
            var counts: [String: Int64] = [:]
            for (name, sql) in [("places", "SELECT COUNT(*) FROM places"), ("photos", "SELECT COUNT(*) FROM photos"),
                                ("photo contents", "SELECT COUNT(*) FROM photo_contents"),
                                ("collections", "SELECT COUNT(*) FROM collections"), ("labels", "SELECT COUNT(*) FROM labels"),
                                ("changes", "SELECT COUNT(*) FROM changes"),
                                ("photo bytes", "SELECT COALESCE(SUM(byte_count), 0) FROM photo_contents")] {
                counts[name] = try Int64.fetchOne(db, sql: sql) ?? 0
            }
            return counts
        }
    }
}
