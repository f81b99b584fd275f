import Foundation
import GlimpseBasics
import GlimpseCatalog
import GlimpseEngine
import GlimpseImage
import GlimpseIntents
import GlimpseVision
import GlimpseWire

extension EvalCommand {
    /// `--measure-edits N`: N catalog edits applied to the loaded engine, as a daemon applies an edit once
    /// its store has committed it. Each adds a place whose photo is the next picture of the manifest (its
    /// features extracted beforehand, as an edit's are before it reaches the store); the update is timed from
    /// the new catalog's making to the engine's publication, and the picture is then queried once: its place
    /// must come first. Prints the update's p50 and p99 and how many edits the first query found, and, when
    /// the matcher then folds after the quiet period, how long after the last edit that took.
    func runEditMeasurement(_ loaded: Engine, entries: [ManifestEntry], count: Int) async throws {
        guard loaded.current.matcher != nil else { throw IntentsCommandError("--measure-edits needs a matcher") }
        let vision = loaded.current.matcher?.configuration ?? loaded.configuration.vision
        var pictures: [(path: String, picture: PixelBuffer, features: ImageFeatures)] = []
        for entry in entries.prefix(max(0, count)) {
            let features = try ReferenceLoader.features(ofPhotoAt: entry.path, configuration: vision, printer: loaded.featurePrinter)
            pictures.append((entry.path, try loaded.decode(contentsOfFile: entry.path), features))
        }
        guard !pictures.isEmpty else { throw IntentsCommandError("--measure-edits needs pictures in the manifest") }
        var catalog = loaded.catalog
        var updates: [Double] = []
        var found = 0
        for (n, edit) in pictures.enumerated() {
            let id = "measured-edit-\(n)"
            let place = PlaceDefinition(id: id, name: "Measured edit \(n)", kind: "edit", photos: [PhotoDefinition(image: edit.path)])
            let start = ContinuousClock.now
            let next = try catalog.applying(
                CatalogDefinitionChanges(places: [id: place]), identity: Array("measured-edit:\(n)".utf8),
                photoPath: { _, _ in edit.path })
            try loaded.update(
                to: next, features: [Catalog.referenceKey(placeID: id, photoPath: edit.path): edit.features],
                changedPlaces: [id])
            updates.append((ContinuousClock.now - start).milliseconds)
            let page = try await loaded.search(SemanticContentDescriptor(pixelBuffer: edit.picture), limit: 3)
            if case .place(let top)? = page.items.first?.result, top.id == id { found += 1 }
            catalog = next
        }
        let summary = LatencySummary(samples: updates)
        let references = loaded.current.matcher?.referenceCount ?? 0
        var segments = loaded.current.matcher?.segmentCount ?? 0
        // A matcher that folds after quiet edits does so once the engine's quiet period has passed: timed
        // from the last edit until the folded matcher serves (at most 20 minutes).
        var foldSeconds: Double?
        if loaded.current.matcher?.foldsWhenQuiet == true, loaded.configuration.compactionQuietPeriod != nil {
            let last = ContinuousClock.now
            while loaded.current.matcher?.foldsWhenQuiet == true, ContinuousClock.now - last < .seconds(1_200) {
                try await Task.sleep(for: .milliseconds(50))
            }
            if loaded.current.matcher?.foldsWhenQuiet == false {
                foldSeconds = (ContinuousClock.now - last).milliseconds / 1_000
                segments = loaded.current.matcher?.segmentCount ?? 0
            }
        }
        if json {
            let object: [String: Any] = [
                "references": references, "edits": updates.count, "found_by_next_query": found,
                "update_p50_ms": summary.p50, "update_p99_ms": summary.p99, "update_max_ms": updates.max() ?? 0,
                "segments": segments, "folded_after_s": foldSeconds ?? -1,
            ]
            print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
        } else {
            print("\(updates.count) edits on \(references) references: update p50 \(String(format: "%.2f", summary.p50)) ms, "
                + "p99 \(String(format: "%.2f", summary.p99)) ms, max \(String(format: "%.2f", updates.max() ?? 0)) ms; "
                + "found by the next query: \(found) of \(updates.count)"
                + (foldSeconds.map { "; folded into one segment \(String(format: "%.1f", $0)) s after the last edit" } ?? ""))
        }
    }
}
