// landmarks PHOTO [CATALOG]: runs the app's visual intelligence query on a photo, as the system would
// with a camera capture, prints the results, and opens the first landmark with its open intent.
import AppIntents
import VisualIntelligence

let arguments = CommandLine.arguments.dropFirst()
guard let photo = arguments.first else {
    print("usage: landmarks PHOTO [CATALOG-FOLDER]   (the catalog folder defaults to Images)")
    exit(2)
}
let catalog = arguments.dropFirst().first ?? "Images"

do {
    let modelData = try await ModelData(catalogDirectory: catalog)
    AppDependencyManager.shared.add(dependency: modelData)

    let descriptor = SemanticContentDescriptor(labels: [], pixelBuffer: try modelData.picture(atPath: photo))
    let results = try await LandmarkIntentValueQuery().values(for: descriptor)
    if results.isEmpty {
        print("no landmark recognised in \(photo)")
        exit(1)
    }
    for (rank, result) in results.enumerated() {
        let display = result.displayRepresentation
        let type = String(localized: result.typeDisplayRepresentation.name)
        print("\(rank + 1). \(type) \(result.entityIdentifierString): \(String(localized: display.title))"
              + (display.subtitle.map { " — \(String(localized: $0))" } ?? ""))
    }
    for case .landmark(let landmark) in results.prefix(1) {
        let open = OpenLandmarkIntent()
        open.target = landmark
        if let dialog = try await open.perform().dialog { print(dialog) }
        let again = try await LandmarkEntity.defaultQuery.entities(for: [landmark.id])
        let known = LandmarkEntity.typeDisplayRepresentation.formatted(count: modelData.landmarks.count)
        print("\(again.map(\.name).joined()) found again by id among \(known)")
    }
} catch {
    print("landmarks: \(error)")
    exit(1)
}
