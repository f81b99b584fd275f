public import GlimpseFeaturePrint
import GlimpseFiles

extension LabelModel {
    /// Reads and validates the model file at `path`. A model built on feature prints needs the
    /// `featurePrinter` of the same network.
    ///
    /// - Throws: ``LabelModelError`` when the file cannot be read, is not a model file, is truncated or
    ///   damaged, or was built with a feature extractor this build (with this printer) does not compute.
    public static func load(
        from path: String, featurePrinter: FeaturePrinterPool? = nil
    ) throws(LabelModelError) -> LabelModel {
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try AtomicFile.readAll(path)
        } catch {
            throw .file(.unreadable(path: path, reason: error.systemMessage))
        }
        return try LabelModelFile.decode(bytes, path: path, featurePrinter: featurePrinter)
    }

    /// Validates model file contents already in memory; `name` identifies them in errors.
    public static func decode(
        _ bytes: [UInt8], name: String = "(in memory)", featurePrinter: FeaturePrinterPool? = nil
    ) throws(LabelModelError) -> LabelModel {
        try LabelModelFile.decode(bytes, path: name, featurePrinter: featurePrinter)
    }

    /// The model file contents.
    public func encoded() -> [UInt8] { LabelModelFile.encode(self) }

    /// Writes the model to `path`, replacing any file there atomically and durably: after a crash the
    /// file holds either the previous model or this one.
    ///
    /// - Throws: ``LabelModelError/writeFailed(path:reason:)`` naming the step that failed, or
    ///   ``LabelModelError/writtenButNotDurable(path:reason:)`` when only flushing the directory failed.
    public func save(to path: String) throws(LabelModelError) {
        do throws(FileError) {
            try AtomicFile.replace(path, with: encoded())
        } catch {
            throw LabelModelError(saving: error)
        }
    }
}

extension LabelModelError {
    /// The error of a save that failed with `error`.
    init(saving error: FileError) {
        self = error.isAfterRename
            ? .writtenButNotDurable(path: error.path, reason: error.reason)
            : .writeFailed(path: error.path, reason: error.reason)
    }
}
