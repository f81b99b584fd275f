import Foundation
public import Glibc

/// Adds to `actions` the closing, in the child, of every file descriptor from `lowest` up.
///
/// A child made by `posix_spawn` inherits every descriptor of the test process not marked close-on-exec,
/// among them those of processes Foundation's `Process` is starting at the same moment on other threads:
/// the socket by which Foundation learns that its child ended, and its pipes. A long-lived child that
/// keeps one (a PostgreSQL server started by `pg_ctl`) keeps Foundation from ever seeing that other child
/// end: its `waitUntilExit` never returns and it stays a zombie (six `curl`s did, for 25 minutes, in a
/// suite run on a loaded machine).
///
/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later) closes them all in the child; it
/// is looked up at run time because Swift's Glibc module does not import it. Without it, each descriptor
/// open now is closed (`/proc/self/fd`), which leaves only those opened between this call and the spawn.
public func addCloseFrom(_ lowest: Int32, to actions: inout posix_spawn_file_actions_t) {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        if closeFrom(&actions, lowest) == 0 { return }
    }
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for descriptor in open.compactMap(Int32.init) where descriptor >= lowest {
        // glibc reports a failed close in the child only for a descriptor out of range, so one closed
        // in the meantime does not fail the spawn.
        posix_spawn_file_actions_addclose(&actions, descriptor)
    }
}
