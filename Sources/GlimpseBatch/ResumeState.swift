import Foundation

/// What an earlier, interrupted run already wrote to its output file.
///
/// Records are read back in chunks (the file is never held whole). Only the last record may be
/// incomplete (the run was killed while writing it): it is dropped, and ``validLength`` says where
/// the complete records end, so the file can be cut there before new records are appended.
public struct ResumeState: Sendable {
    /// The paths that already have a record.
    public private(set) var finished: Set<String> = []
    /// How many of those records had each status.
    public private(set) var counts: [MatchRecord.Status: Int] = [:]
    /// The byte length of the complete records (and header) at the start of the file.
    public private(set) var validLength = 0
    /// Whether the file already starts with the format's header row.
    public private(set) var hasHeader = false
    /// Whether an incomplete last record was found (and will be cut off).
    public private(set) var droppedTornRecord = false

    /// An empty state: nothing finished.
    public init() {}

    /// Reads the records of `path`, written in `format`; an absent or empty file gives an empty state.
    ///
    /// - Throws: ``BatchError/resumeFailed(path:reason:)`` when the file cannot be read, the format
    ///   cannot be resumed, or a record other than the last is malformed.
    public static func load(path: String, format: RecordFormat) throws(BatchError) -> ResumeState {
        guard format.isResumable else {
            throw .resumeFailed(path: path, reason: "the \(format) format cannot be read back; use jsonl or csv")
        }
        guard FileManager.default.fileExists(atPath: path) else { return ResumeState() }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .resumeFailed(path: path, reason: "it cannot be opened for reading")
        }
        defer { try? handle.close() }
        var state = ResumeState()
        var parser = RecordSplitter(csv: format == .csv)
        var offset = 0
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 16) ?? Data()
            } catch {
                throw .resumeFailed(path: path, reason: "\(error)")
            }
            if chunk.isEmpty { break }
            for byte in chunk {
                offset += 1
                guard let fields = parser.feed(byte) else { continue }
                try state.accept(fields, format: format, end: offset, path: path)
            }
        }
        state.droppedTornRecord = parser.hasPartialRecord
        return state
    }

    private mutating func accept(_ fields: [String], format: RecordFormat, end: Int, path: String) throws(BatchError) {
        defer { validLength = end }
        switch format {
        case .csv:
            if validLength == 0, fields.first == "path" {
                hasHeader = true
                return
            }
            guard fields.count >= 2, let status = MatchRecord.Status(rawValue: fields[1]) else {
                throw .resumeFailed(path: path, reason: "record ending at byte \(end) is not a Glimpse CSV record")
            }
            try add(fields[0], status, end: end, path: path)
        case .jsonl:
            guard let line = fields.first, !line.isEmpty else { return }
            guard let record = try? JSONDecoder().decode(MatchRecord.self, from: Data(line.utf8)) else {
                throw .resumeFailed(path: path, reason: "line ending at byte \(end) is not a Glimpse JSON record")
            }
            try add(record.path, record.status, end: end, path: path)
        case .table:
            return
        }
    }

    /// Records a finished picture. A second record for the same picture means the file was written by
    /// two runs at once (or edited): it cannot be trusted, so resuming from it is refused.
    private mutating func add(_ picture: String, _ status: MatchRecord.Status, end: Int, path: String) throws(BatchError) {
        guard finished.insert(picture).inserted else {
            throw .resumeFailed(
                path: path,
                reason: "the record ending at byte \(end) repeats \(picture), so two runs wrote this file at once; "
                    + "start a fresh run without --resume"
            )
        }
        counts[status, default: 0] += 1
    }
}

/// Splits a byte stream into complete records: lines for JSON Lines, or RFC 4180 records (fields,
/// quotes, line breaks inside quotes) for CSV.
struct RecordSplitter {
    let csv: Bool
    private var field: [UInt8] = []
    private var fields: [String] = []
    private var inQuotes = false
    private var quotePending = false

    init(csv: Bool) {
        self.csv = csv
    }

    /// Whether bytes have been fed since the last complete record.
    var hasPartialRecord: Bool { !field.isEmpty || !fields.isEmpty || inQuotes }

    /// Feeds one byte; returns the fields of a record when `byte` completes one.
    mutating func feed(_ byte: UInt8) -> [String]? {
        let newline: UInt8 = 0x0A, cr: UInt8 = 0x0D, quote: UInt8 = 0x22, comma: UInt8 = 0x2C
        guard csv else {
            if byte == newline {
                if field.last == cr { field.removeLast() }
                defer { field.removeAll(keepingCapacity: true) }
                return [String(decoding: field, as: UTF8.self)]
            }
            field.append(byte)
            return nil
        }
        if inQuotes {
            if quotePending {
                quotePending = false
                if byte == quote {
                    field.append(quote)
                    return nil
                }
                inQuotes = false
                // fall through: the byte after a closing quote is handled below.
            } else {
                if byte == quote { quotePending = true } else { field.append(byte) }
                return nil
            }
        }
        switch byte {
        case quote where field.isEmpty:
            inQuotes = true
            return nil
        case comma:
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            return nil
        case newline:
            if field.last == cr { field.removeLast() }
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            defer { fields.removeAll(keepingCapacity: true) }
            return fields
        default:
            field.append(byte)
            return nil
        }
    }
}
