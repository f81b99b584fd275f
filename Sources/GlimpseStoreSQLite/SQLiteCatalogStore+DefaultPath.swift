public import Foundation
import GlimpseFiles

extension SQLiteCatalogStore {
    /// The store for the catalog folder `catalogDirectory` when none is named: `$GLIMPSE_STORE` when set,
    /// else `stores/<folder name>-<hash of its absolute path>.sqlite` in `$XDG_DATA_HOME/glimpse` (or
    /// `~/.local/share/glimpse`). One store per folder, so serving another folder never serves this one's
    /// edits; `glimpse serve` and `glimpse catalog` find the same store by the same `--catalog`.
    public static func defaultPath(
        catalogDirectory: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let path = environment["GLIMPSE_STORE"], !path.isEmpty { return path }
        let data = UserFolders.dataHome(environment: environment) ?? NSHomeDirectory() + "/.local/share"
        return data + "/glimpse/stores/" + FolderTag.of(catalogDirectory) + ".sqlite"
    }
}
