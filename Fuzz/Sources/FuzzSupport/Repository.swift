/// Paths in the repository these targets were built from (the package is always built in place).
public enum Repository {
    /// The repository's root folder.
    public static let root: String = {
        // .../Fuzz/Sources/FuzzSupport/Repository.swift → ...
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(4)
        return components.joined(separator: "/")
    }()

    /// The bundled catalog folder, `Images/`.
    public static var images: String { root + "/Images" }
}
