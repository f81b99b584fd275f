import Foundation

/// One entry of a batch: a path to match, in walk order.
public struct BatchItem: Sendable, Hashable {
    /// The path as it will appear in the record: the folder argument joined with the relative path.
    public let path: String
    /// Set when the entry is already known to be unusable (a directory that cannot be listed).
    public let problem: BatchError?

    /// Creates an item for `path`, with an optional known `problem`.
    public init(path: String, problem: BatchError? = nil) {
        self.path = path
        self.problem = problem
    }
}

/// Which directory entries a walk yields.
public struct WalkOptions: Sendable, Hashable {
    /// Descend into subdirectories (symbolic links to directories are never followed).
    public var recursive: Bool
    /// Yield every file, not only those named like pictures (`.jpg`, `.jpeg`, `.png` …).
    public var allFiles: Bool

    /// Creates options; by default only the top folder's picture-named entries are yielded.
    public init(recursive: Bool = false, allFiles: Bool = false) {
        self.recursive = recursive
        self.allFiles = allFiles
    }

    /// The file-name extensions treated as pictures, lowercase.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif", "png"]

    /// Whether a file name has a picture extension (case-insensitive).
    public static func isImageName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}

/// A lazy walk over a folder in a stable order: entries sorted by name, depth first.
///
/// Only one directory's listing is held per level of depth, so memory does not grow with the
/// number of files. Hidden entries (names starting with `.`) are skipped. An entry named like a
/// picture is yielded whatever it is (a directory, a FIFO, a dangling link), so that the batch can
/// report it; other entries are skipped and counted in ``ignored`` (unless
/// ``WalkOptions/allFiles`` is set).
public struct ImageWalker: Sequence {
    /// The folder being walked, as given.
    public let root: String
    /// What the walk yields.
    public let options: WalkOptions

    /// Creates a walk over `root`.
    ///
    /// - Throws: ``BatchError/notADirectory(_:)`` when `root` is not a directory.
    public init(root: String, options: WalkOptions = WalkOptions()) throws(BatchError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .notADirectory(root)
        }
        self.root = root
        self.options = options
    }

    /// Counts the items a walk would yield, without holding them (a second pass over the folder).
    public func count() -> Int {
        var n = 0
        var iterator = makeIterator()
        while iterator.next() != nil { n += 1 }
        return n
    }

    /// Counts the items a walk would yield whose paths are not in `finished` (for progress when resuming).
    public func count(excluding finished: Set<String>) -> Int {
        guard !finished.isEmpty else { return count() }
        var n = 0
        var iterator = makeIterator()
        while let item = iterator.next() {
            if !finished.contains(item.path) { n += 1 }
        }
        return n
    }

    /// Starts the walk.
    public func makeIterator() -> Iterator {
        Iterator(root: root, options: options)
    }

    /// The state of a walk: a stack of sorted directory listings.
    public struct Iterator: IteratorProtocol {
        private struct Level {
            let directory: String
            let names: [String]
            var position: Int
        }

        private let options: WalkOptions
        private var stack: [Level] = []
        private var pendingRoot: String?
        /// Entries seen and skipped because they are not named like pictures.
        public private(set) var ignored = 0

        init(root: String, options: WalkOptions) {
            self.options = options
            self.pendingRoot = root
        }

        /// The next item in walk order, or `nil` at the end.
        public mutating func next() -> BatchItem? {
            if let root = pendingRoot {
                pendingRoot = nil
                if let problem = push(root) { return BatchItem(path: root, problem: problem) }
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
                let kind = Self.kind(of: path)
                if kind == .directory, options.recursive {
                    if let problem = push(path) { return BatchItem(path: path, problem: problem) }
                    continue
                }
                if options.allFiles && kind != .directory || WalkOptions.isImageName(name) {
                    return BatchItem(path: path)
                }
                ignored += 1
            }
            return nil
        }

        private mutating func push(_ directory: String) -> BatchError? {
            do {
                let names = try FileManager.default.contentsOfDirectory(atPath: directory)
                    .filter { !$0.hasPrefix(".") }
                    .sorted()
                stack.append(Level(directory: directory, names: names, position: 0))
                return nil
            } catch {
                return .listingFailed(path: directory, reason: (error as NSError).localizedDescription)
            }
        }

        private enum Kind { case directory, other }

        /// The entry's own type, not following symbolic links (a link to a directory is not walked).
        private static func kind(of path: String) -> Kind {
            var info = stat()
            guard lstat(path, &info) == 0 else { return .other }
            return info.st_mode & S_IFMT == S_IFDIR ? .directory : .other
        }

        private static func join(_ directory: String, _ name: String) -> String {
            directory.hasSuffix("/") ? directory + name : directory + "/" + name
        }
    }
}
