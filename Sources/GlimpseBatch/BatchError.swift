/// Why one file of a batch could not be matched, or why the batch itself could not run.
///
/// File-level cases end up in that file's record (``MatchRecord/error``) and the batch goes on;
/// run-level cases (``notADirectory(_:)``, ``outputFailed(path:reason:)`` …) stop the batch.
public enum BatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path does not exist, or is a symbolic link to nothing.
    case missing(path: String)
    /// The path is a directory where a file was expected.
    case isDirectory(path: String)
    /// The path is a FIFO, socket or device, which the batch never opens.
    case notRegularFile(path: String, kind: String)
    /// The file exists but could not be opened or read; `reason` is the system's message.
    case unreadable(path: String, reason: String)
    /// The file is larger than the batch accepts.
    case tooLarge(path: String, bytes: Int, limit: Int)
    /// The file was read but is not a picture Glimpse can decode; `reason` comes from the decoder.
    case notAnImage(path: String, reason: String)
    /// The file is a PNG or JPEG that cannot be decoded (truncated, corrupt, too large…); `reason` comes from the decoder.
    case badImage(path: String, reason: String)
    /// The picture decoded but matching it failed; `reason` comes from the matcher.
    case matchFailed(path: String, reason: String)
    /// The folder to match is missing or is not a directory.
    case notADirectory(_ path: String)
    /// A directory inside the folder could not be listed.
    case listingFailed(path: String, reason: String)
    /// Writing a record to the output failed.
    case outputFailed(path: String, reason: String)
    /// An existing output file could not be read back for `--resume`.
    case resumeFailed(path: String, reason: String)
    /// Another process (another `glimpse match`) holds the lock on the output file.
    case outputLocked(path: String)

    /// A short stable code for the failure, used in the `error_kind` column of records.
    public var kind: String {
        switch self {
        case .missing: "missing"
        case .isDirectory: "directory"
        case .notRegularFile: "not_regular_file"
        case .unreadable: "unreadable"
        case .tooLarge: "too_large"
        case .notAnImage: "not_an_image"
        case .badImage: "bad_image"
        case .matchFailed: "match_failed"
        case .notADirectory: "not_a_directory"
        case .listingFailed: "listing_failed"
        case .outputFailed: "output_failed"
        case .resumeFailed: "resume_failed"
        case .outputLocked: "output_locked"
        }
    }

    /// A sentence saying what happened and what to do about it.
    public var description: String {
        switch self {
        case let .missing(path):
            "\(path): no such file (or a symbolic link to nothing); remove the link or restore its target"
        case let .isDirectory(path):
            "\(path): is a directory, not a picture; pass --recursive to look inside directories"
        case let .notRegularFile(path, kind):
            "\(path): is a \(kind), not a regular file; only regular files are read"
        case let .unreadable(path, reason):
            "\(path): cannot be read (\(reason)); check its permissions"
        case let .tooLarge(path, bytes, limit):
            "\(path): \(bytes) bytes is more than the \(limit)-byte limit for one picture"
        case let .notAnImage(path, reason):
            "\(path): not a picture Glimpse can read (\(reason)); only JPEG and PNG files are matched"
        case let .badImage(path, reason):
            "\(path): \(reason)"
        case let .matchFailed(path, reason):
            "\(path): matching failed (\(reason))"
        case let .notADirectory(path):
            "\(path): is not a directory; pass the folder that holds the pictures"
        case let .listingFailed(path, reason):
            "\(path): the directory cannot be listed (\(reason)); check its permissions"
        case let .outputFailed(path, reason):
            "\(path): cannot write results (\(reason)); check the path and free space"
        case let .resumeFailed(path, reason):
            "\(path): cannot resume from this file (\(reason)); pass a JSON Lines or CSV output of an earlier run"
        case let .outputLocked(path):
            "\(path): another glimpse match is writing to this file; wait for it to finish (then --resume) "
                + "or choose another --output"
        }
    }
}
