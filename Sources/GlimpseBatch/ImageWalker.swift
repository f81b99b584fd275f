import GlimpseFiles

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

/// The batch's walk over a folder: GlimpseFiles' ``FolderWalk`` (sorted by name, depth first, hidden
/// entries skipped, symbolic links to directories not followed), keeping picture-named entries.
///
/// An entry named like a picture is yielded whatever it is (a directory, a FIFO, a dangling link), so
/// that the batch can report it; other entries are skipped and counted in ``Iterator/ignored``
/// (unless ``WalkOptions/allFiles`` is set). A directory that cannot be listed is yielded with
/// ``BatchError/listingFailed(path:reason:)``.
public struct ImageWalker: Sequence {
    /// The folder being walked, as given.
    public let root: String
    /// What the walk yields.
    public let options: WalkOptions

    /// Creates a walk over `root`.
    ///
    /// - Throws: ``BatchError/notADirectory(_:)`` when `root` is not a directory.
    public init(root: String, options: WalkOptions = WalkOptions()) throws(BatchError) {
        guard FolderWalk.isDirectory(root) else { throw .notADirectory(root) }
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
        Iterator(walk: FolderWalk(root: root, recursive: options.recursive).makeIterator(), options: options)
    }

    /// The state of a walk.
    public struct Iterator: IteratorProtocol {
        private var walk: FolderWalk.Iterator
        private let options: WalkOptions
        /// Entries seen and skipped because they are not named like pictures.
        public private(set) var ignored = 0

        init(walk: FolderWalk.Iterator, options: WalkOptions) {
            self.walk = walk
            self.options = options
        }

        /// The next item in walk order, or `nil` at the end.
        public mutating func next() -> BatchItem? {
            while let entry = walk.next() {
                if let reason = entry.listingError {
                    return BatchItem(path: entry.path, problem: .listingFailed(path: entry.path, reason: reason))
                }
                if entry.isDirectory, options.recursive { continue }
                if options.allFiles && !entry.isDirectory || WalkOptions.isImageName(entry.name) {
                    return BatchItem(path: entry.path)
                }
                ignored += 1
            }
            return nil
        }
    }
}
