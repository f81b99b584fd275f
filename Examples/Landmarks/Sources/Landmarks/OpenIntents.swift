// One open intent per entity type of the union value. On iOS the system opens the app on the entity;
// here perform() returns the result a caller can show.
import AppIntents

struct OpenLandmarkIntent: OpenIntent {
    static let title: LocalizedStringResource = "Open Landmark"

    @Parameter(title: "Landmark", requestValueDialog: "Which landmark?")
    var target: LandmarkEntity

    func perform() async throws -> some IntentResult {
        .result(dialog: "Opening \(target.name) in \(target.country).")
    }
}

struct OpenCollectionIntent: OpenIntent {
    static let title: LocalizedStringResource = "Open Collection"

    @Parameter(title: "Collection", requestValueDialog: "Which collection?")
    var target: CollectionEntity
}
