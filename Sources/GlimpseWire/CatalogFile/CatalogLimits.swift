/// How many entries a catalog's lists may hold: the one home of these counts, read by the catalog's text
/// rule (`CatalogText` in GlimpseCatalog) and by the wire types, which refuse a longer list while decoding,
/// before any of its entries is made (``BoundedList``).
public enum CatalogLimits {
    /// The most labels one place may have (each at most once).
    public static let labelsPerPlace = 64
    /// The most photos one place may have.
    public static let photosPerPlace = 64
    /// The most collections one place may list.
    public static let collectionsPerPlace = 256
    /// The most labels the vocabulary may hold.
    public static let vocabulary = 4096
}
