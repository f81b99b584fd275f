#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one folder walk of the package: a lazy walk in a stable order, entries sorted by name, depth
/// first, behind `glimpse match`, `glimpse bench` and `glimpse decode`.
///
/// Hidden entries (names starting with `.`) are skipped. Every other entry is yielded, directories
/// included; with `recursive`, a directory's entries follow it, but symbolic links to directories are
/// never followed. Only one directory's listing is held per level of depth, so memory does not grow
/// with the number of files. A directory that cannot be listed (the root included) is yielded with
/// ``Entry/listingError`` set.
package struct FolderWalk: Sequence {
    /// One entry of the walk.
    package struct Entry: Sendable, Hashable {
        /// The entry's path: the root joined with the relative path.
        package let path: String
        /// The entry's own name.
        package let name: String
        /// Whether the entry itself is a directory (a symbolic link to one is not).
        package let isDirectory: Bool
        /// Why the entry, a directory, could not be listed (the system's message), or `nil`.
        package let listingError: String?
    }

    /// The folder walked, as given.
    package let root: String
    /// Whether subdirectories are walked too.
    package let recursive: Bool

    /// A walk over `root`, into its subdirectories when `recursive`.
    package init(root: String, recursive: Bool) {
        self.root = root
        self.recursive = recursive
    }

    /// Whether `path` is a directory, following symbolic links.
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Starts the walk.
    package func makeIterator() -> Iterator {
        Iterator(root: root, recursive: recursive)
    }

    /// The state of a walk: a stack of sorted directory listings.
    package struct Iterator: IteratorProtocol {
        private struct Level {
            let directory: String
            let names: [String]
            var position: Int
        }

        private let recursive: Bool
        private var stack: [Level] = []
        private var pendingRoot: String?

        init(root: String, recursive: Bool) {
            self.recursive = recursive
            pendingRoot = root
        }

        /// The next entry in walk order, or `nil` at the end.
        package mutating func next() -> Entry? {
            if let root = pendingRoot {
                pendingRoot = nil
                if let problem = push(root) {
                    return Entry(path: root, name: root, isDirectory: true, listingError: problem)
                }
            }
            while !stack.isEmpty {
                let top = stack.count - 1
                guard stack[top].position < stack[top].names.count else {
                    stack.removeLast()
                    continue
                }
                let name = stack[top].names[stack[top].position]
                stack[top].position += 1
                let path = Self.join(stack[top].directory, name)
                let isDirectory = Self.isOwnDirectory(path)
                let problem = isDirectory && recursive ? push(path) : nil
                return Entry(path: path, name: name, isDirectory: isDirectory, listingError: problem)
            }
            return nil
        }

        /// Lists `directory` onto the stack, or returns why it cannot be listed.
        private mutating func push(_ directory: String) -> String? {
            guard let handle = opendir(directory) else { return String(cString: strerror(errno)) }
            defer { closedir(handle) }
            var names: [String] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if !name.hasPrefix(".") { names.append(name) }
            }
            stack.append(Level(directory: directory, names: names.sorted(), position: 0))
            return nil
        }

        /// Whether the entry's own type is a directory, not following symbolic links.
        private static func isOwnDirectory(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
        }

        private static func join(_ directory: String, _ name: String) -> String {
            directory.hasSuffix("/") ? directory + name : directory + "/" + name
        }
    }
}
