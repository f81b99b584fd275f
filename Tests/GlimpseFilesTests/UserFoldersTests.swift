import GlimpseFiles
import Testing

/// The XDG base folders: an absolute variable wins, else the folder under `$HOME`, else none.
@Suite struct UserFoldersTests {
    @Test func anAbsoluteVariableWinsElseHomeElseNone() {
        #expect(UserFolders.cacheHome(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]) == "/c")
        #expect(UserFolders.cacheHome(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]) == "/h/.cache")
        #expect(UserFolders.dataHome(environment: ["HOME": "/h"]) == "/h/.local/share")
        #expect(UserFolders.dataHome(environment: ["XDG_DATA_HOME": "/d"]) == "/d")
        #expect(UserFolders.cacheHome(environment: ["HOME": ""]) == nil)
    }
}
