/// The per-user base folders of the XDG Base Directory rules, the one place Glimpse reads them.
public enum UserFolders {
    /// `$XDG_CACHE_HOME` when it is an absolute path, else `$HOME/.cache`; `nil` when neither is set.
    public static func cacheHome(environment: [String: String]) -> String? {
        base(environment, variable: "XDG_CACHE_HOME", underHome: ".cache")
    }

    /// `$XDG_DATA_HOME` when it is an absolute path, else `$HOME/.local/share`; `nil` when neither is set.
    public static func dataHome(environment: [String: String]) -> String? {
        base(environment, variable: "XDG_DATA_HOME", underHome: ".local/share")
    }

    private static func base(_ environment: [String: String], variable: String, underHome: String) -> String? {
        if let xdg = environment[variable], xdg.hasPrefix("/") { return xdg }
        if let home = environment["HOME"], !home.isEmpty { return home + "/" + underHome }
        return nil
    }
}
