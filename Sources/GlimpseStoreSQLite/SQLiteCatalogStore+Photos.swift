import Foundation
public import GlimpseCatalog
import GlimpseFiles
public import GlimpseStore
import GRDB

extension SQLiteCatalogStore {
    /// The folder beside the database that holds the photos' bytes as read-only `<sha256>.<ext>` files
    /// (part of the store, not a cache: back it up with the database). The served catalog's photo
    /// paths point into it, so a ``PhotoFolder`` at this path finds every photo already there.
    public var photoFolder: String { photoFiles.folder }

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

    /// How ``check(featuresKey:)`` ends the sentence for a photo whose features are stored under another key.
    public static let otherSettingsProblem = "features made with other settings or another feature-print model"

    /// Checks the whole store: SQLite's full integrity check, every photo's file against its SHA-256 and
    /// size (a missing file is a lost photo), every photo's features (present and decodable, and stored
    /// under `featuresKey` when one is given), every row as a daemon reads it (content addresses, text,
    /// the catalog's rules), and the other files of the photo folder against the photos' hashes.
    ///
    /// - Returns: one sentence per problem found; empty when the store is sound.
    public func check(featuresKey: String?) async throws(StoreError) -> [String] {
        try await check(featuresKey: featuresKey, betweenSnapshots: {})
    }

    /// ``check(featuresKey:)``, running `betweenSnapshots` after the rows were read and before the
    /// unreadable files are looked at again (tests stand for a daemon's edit there).
    func check(featuresKey: String?, betweenSnapshots: () async -> Void) async throws(StoreError) -> [String] {
        let (rowProblems, unreadable) = try await databaseProblems(featuresKey: featuresKey)
        await betweenSnapshots()
        var problems = rowProblems
        problems += try await stillUnreadable(unreadable).map { sha, problem in "photo \(sha): \(problem)" }
        do throws(StoreError) {
            let stored = try await read(featuresKey: nil)
            do throws(CatalogError) {
                _ = try stored.catalog(photoFolder: photoFolder)
            } catch {
                problems.append("the catalog a daemon would load is refused: \(error.description)")
            }
            // The contents' own files are checked with the rows; here, the copies a photo folder writes
            // for photos whose names' extensions differ from their contents' files.
            let contentFiles = try await read { db in
                Set(try String.fetchAll(db, sql: "SELECT file FROM photo_contents WHERE file IS NOT NULL"))
            }
            let copies = stored.places.map { place in
                StoredPlace(definition: place.definition, revision: place.revision,
                            photos: place.photos.filter { !contentFiles.contains($0.fileName) })
            }
            problems += PhotoFolder(path: photoFolder).problems(places: copies)
        } catch {
            problems.append("a daemon could not read the store: \(error.description)")
        }
        return problems
    }

    /// Of the contents whose files could not be read in an earlier snapshot, those whose files still
    /// cannot be read now, with the reason. A store opened for reading shares its files with a writer in
    /// another process (a daemon), which may have deleted a photo, row and file, since that snapshot.
    private func stillUnreadable(_ shas: [String]) async throws(StoreError) -> [(sha: String, problem: String)] {
        guard !shas.isEmpty else { return [] }
        let files = photoFiles
        return try await read { db in
            try shas.compactMap { sha -> (sha: String, problem: String)? in
                do {
                    _ = try files.read(sha256: sha, in: db)
                    return nil
                } catch let error as StoreError {
                    return (sha, error.description)
                }
            }
        }
    }

    /// The problems of the rows, and the contents whose files cannot be read (see ``stillUnreadable(_:)``).
    private func databaseProblems(featuresKey: String?) async throws(StoreError) -> (problems: [String], unreadable: [String]) {
        let files = photoFiles
        return try await read { db in
            var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                .map { "integrity check: \($0)" }
            var unreadable: [String] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT sha256, file, byte_count, features, features_key FROM photo_contents")
            while let row = try rows.next() {
                let sha: String = row[0]
                guard StoredPhoto.isContentAddress(sha) else {
                    problems.append("a photo's SHA-256 is not 64 hexadecimal digits (a damaged or forged row)")
                    continue
                }
                if let file = row[1] as String?, (try? files.read(file, sha256: sha, byteCount: row[2])) != nil {
                    // Sound.
                } else {
                    unreadable.append(sha)
                }
                guard let blob = row[3] as Data? else {
                    problems.append("photo \(sha): no features stored")
                    continue
                }
                if let featuresKey, row[4] as String? != featuresKey {
                    problems.append("photo \(sha): \(Self.otherSettingsProblem)")
                }
                if let problem = EncodedFeatures(bytes: [UInt8](blob)).framingProblem {
                    problems.append("photo \(sha): its stored features are unusable (\(problem))")
                }
            }
            let orphans = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM places WHERE NOT EXISTS "
                + "(SELECT 1 FROM photos WHERE photos.place_id = places.id)") ?? 0
            if orphans > 0 { problems.append("\(orphans) places have no photo") }
            return (problems, unreadable)
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
