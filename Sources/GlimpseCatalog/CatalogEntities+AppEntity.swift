public import GlimpseIntents

extension PlaceEntity: AppEntity {
    /// "Place" / "N places".
    public static let typeDisplayRepresentation = TypeDisplayRepresentation(name: "Place", numericFormat: "%d places")

    /// Title: the name; subtitle: region and continent (or the kind when the catalog gives neither);
    /// image: the reference photo.
    public var displayRepresentation: DisplayRepresentation {
        let whereabouts = [region, continent].compactMap { $0 }
        return DisplayRepresentation(
            title: name,
            subtitle: whereabouts.isEmpty ? kind : whereabouts.joined(separator: ", "),
            image: .init(filePath: photoPath))
    }
}

extension CollectionEntity: AppEntity {
    /// "Collection" / "N collections".
    public static let typeDisplayRepresentation = TypeDisplayRepresentation(
        name: "Collection", numericFormat: "%d collections")

    /// Title: the name; subtitle: the summary; image: the first member's photo, when there is one.
    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: name, subtitle: summary, image: coverPhotoPath.map { .init(filePath: $0) })
    }
}
