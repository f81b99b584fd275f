// The app's entities and the union of them that visual search returns. Nothing here is Linux-specific:
// the same file builds against Apple's AppIntents on iOS.
import AppIntents

struct LandmarkEntity: IndexedEntity {
    static let defaultQuery = LandmarkEntityQuery()

    static var typeDisplayRepresentation: TypeDisplayRepresentation {
        TypeDisplayRepresentation(
            name: LocalizedStringResource("Landmark", table: "AppIntents", comment: "The type name of a landmark"),
            numericFormat: "\(placeholder: .int) landmarks"
        )
    }

    var id: String

    @Property(title: "Name", indexingKey: .title)
    var name: String

    @Property(title: "Continent")
    var continent: String

    @Property(title: "Country", indexingKey: .country)
    var country: String

    var photo: URL

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(
            title: "\(name)",
            subtitle: "\(country), \(continent)",
            image: .init(url: photo)
        )
    }

    init(id: String, name: String, continent: String, country: String, photo: URL) {
        self.id = id
        self.photo = photo
        self.name = name
        self.continent = continent
        self.country = country
    }
}

struct CollectionEntity: AppEntity {
    static let defaultQuery = CollectionEntityQuery()
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Collection"

    var id: String

    @Property(title: "Name")
    var name: String

    @Property(title: "Landmarks")
    var landmarkIDs: [String]

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(name)", subtitle: "\(landmarkIDs.count) landmarks")
    }

    init(id: String, name: String, landmarkIDs: [String]) {
        self.id = id
        self.name = name
        self.landmarkIDs = landmarkIDs
    }
}

@UnionValue
enum VisualSearchResult {
    case landmark(LandmarkEntity)
    case collection(CollectionEntity)
}
