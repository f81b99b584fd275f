public import AppIntentsCore

extension PlaceEntity: IndexedEntity {
    /// Finds places in the catalog registered with `AppDependencyManager` (see ``PlaceQuery``).
    public static let defaultQuery = PlaceQuery()

    /// "Place" / "N places".
    public static let typeDisplayRepresentation = TypeDisplayRepresentation(
        name: LocalizedStringResource("Place", comment: "The type name of a catalog place"),
        numericFormat: "\(placeholder: .int) places"
    )

    /// Title: the name; subtitle: region and continent (or the kind when the catalog gives neither);
    /// image: the reference photo.
    public var displayRepresentation: DisplayRepresentation {
        let whereabouts = [region, continent].compactMap { $0 }
        let subtitle = whereabouts.isEmpty ? kind : whereabouts.joined(separator: ", ")
        return DisplayRepresentation(title: "\(name)", subtitle: "\(subtitle)", image: .init(filePath: photoPath))
    }
}

extension CollectionEntity: IndexedEntity {
    /// Finds collections in the catalog registered with `AppDependencyManager` (see ``CollectionQuery``).
    public static let defaultQuery = CollectionQuery()

    /// "Collection" / "N collections".
    public static let typeDisplayRepresentation = TypeDisplayRepresentation(
        name: LocalizedStringResource("Collection", comment: "The type name of a catalog collection"),
        numericFormat: "\(placeholder: .int) collections"
    )

    /// Title: the name; subtitle: the summary; image: the first member's photo, when there is one.
    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(name)", subtitle: "\(summary)", image: coverPhotoPath.map { .init(filePath: $0) })
    }
}
