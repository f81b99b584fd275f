import Foundation
import GlimpseFiles
import Testing
@testable import GlimpseLabels

@Suite("Label model file")
struct LabelModelFileTests {
    @Test("the committed model loads and encodes back to the file's bytes exactly")
    func committedModelRoundTrips() throws {
        let path = Fixtures.committedModelPath
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let model = try Fixtures.committedModel()
        #expect(model.encoded() == file)
        #expect(try LabelModel.decode(file, featurePrinter: Fixtures.printer).encoded() == file)
        // The trailer is the CRC-32 of everything before it.
        let stored = file.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(stored == CRC32.checksum(file.dropLast(4)))
    }

    @Test("a model survives encoding and decoding unchanged")
    func roundTrip() throws {
        let model = try Fixtures.smallModel()
        let decoded = try LabelModel.decode(model.encoded())
        #expect(decoded.extractor == model.extractor)
        #expect(decoded.vote == model.vote)
        #expect(decoded.vocabulary == model.vocabulary)
        #expect(decoded.references == model.references)
        #expect(decoded.vectors == model.vectors)
        #expect(decoded.encoded() == model.encoded())
    }

    @Test("save replaces the file atomically and load reads it back")
    func saveAndLoad() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("labels-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/model.glimpsemodel"
        let first = try Fixtures.smallModel(count: 4)
        try first.save(to: path)
        let second = try Fixtures.smallModel(count: 6)
        try second.save(to: path)
        let loaded = try LabelModel.load(from: path)
        #expect(loaded.references.count == 6)
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(entries == ["model.glimpsemodel"])
    }

    @Test("saving into a missing directory fails with the step and the system's reason")
    func saveIntoMissingDirectory() throws {
        let path = "/nonexistent-glimpse-directory/labels.glimpsemodel"
        let model = try Fixtures.smallModel()
        let error = try #require(throws: LabelModelError.self) { try model.save(to: path) }
        #expect(error == .writeFailed(path: path, reason: "creating the temporary file failed: "
            + String(cString: strerror(ENOENT))))
        #expect(error.description.contains("check the directory exists and is writable"))
    }

    @Test("a save that failed only after the rename says the new file is in place but not yet durable")
    func saveFailedAfterRename() {
        for operation in [FileError.Operation.openDirectory, .fsyncDirectory] {
            let error = LabelModelError(saving: FileError(path: "/m/labels.glimpsemodel", operation: operation, code: EIO))
            guard case let .writtenButNotDurable(path, reason) = error else {
                Issue.record("\(operation) mapped to \(error)")
                continue
            }
            #expect(path == "/m/labels.glimpsemodel" && reason.contains(String(cString: strerror(EIO))))
            #expect(error.description.contains("was replaced") && !error.description.contains("untouched"))
        }
        for operation in [FileError.Operation.createTemporary, .write, .fsync, .close, .rename] {
            let error = LabelModelError(saving: FileError(path: "/m/labels.glimpsemodel", operation: operation, code: EIO))
            #expect(error.description.contains("the previous file, if any, is untouched"), "\(operation)")
        }
    }

    @Test("a missing file is refused with a message that says how to rebuild")
    func missingFile() {
        #expect {
            try LabelModel.load(from: "/nonexistent/labels.glimpsemodel")
        } throws: { error in
            guard let error = error as? LabelModelError, case .file(.unreadable(_, _)) = error else { return false }
            return error.description.contains("glimpse models build")
        }
    }

    @Test("a truncated file is refused", arguments: [1, 4, 100, 1000])
    func truncated(cut: Int) throws {
        let bytes = try Fixtures.smallModel().encoded()
        let error = decodeError(Array(bytes.dropLast(cut)))
        guard case .file(.truncated(_, _, _)) = error else {
            Issue.record("expected .truncated, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("glimpse models build") == true)
    }

    @Test("a flipped bit anywhere after the header is caught by the checksum", arguments: [24, 60, 300, 2000, -5])
    func bitFlip(position: Int) throws {
        var bytes = try Fixtures.smallModel().encoded()
        let index = position >= 0 ? position : bytes.count + position
        bytes[index] ^= 0x10
        let error = decodeError(bytes)
        guard case .file(.checksumMismatch(_, _, _)) = error else {
            Issue.record("expected .checksumMismatch, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("damaged") == true)
    }

    @Test("wrong magic bytes are refused")
    func wrongMagic() throws {
        var bytes = try Fixtures.smallModel().encoded()
        bytes[0] = UInt8(ascii: "X")
        #expect(decodeError(bytes) == .file(.notAModelFile(path: "(in memory)")))
        #expect(decodeError(Array("not a model".utf8)) == .file(.notAModelFile(path: "(in memory)")))
    }

    @Test("a future format version is refused")
    func futureFormat() throws {
        var bytes = try Fixtures.smallModel().encoded()
        bytes[8] = 2
        resealChecksum(&bytes)
        #expect(decodeError(bytes) == .file(.unsupportedFormatVersion(path: "(in memory)", found: 2, supported: 1...1)))
        #expect(decodeError(bytes)?.description.contains("has format version 2 but this build reads version 1; rebuild it") == true)
    }

    @Test("a file with its reserved header field set is refused, so every model has one encoding")
    func reservedField() throws {
        var bytes = try Fixtures.smallModel().encoded()
        bytes[10] = 0x40
        resealChecksum(&bytes)
        #expect(decodeError(bytes) == .file(.malformed(path: "(in memory)", reason: "the reserved header field is 64, not 0")))
    }

    @Test("a reference listing a label twice or out of order is refused, so every model has one encoding")
    func unorderedLabels() throws {
        let model = try Fixtures.smallModel()
        let reference = try #require(model.references.first { $0.labels.count >= 2 })
        var bytes = model.encoded()
        // The reference's label list: its id (u32 length, UTF-8), the u16 count, then the u16 indices.
        let id = Array(reference.id.utf8)
        let idLength = [UInt8(id.count & 0xFF), UInt8(id.count >> 8 & 0xFF), 0, 0]
        let start = try #require(bytes.firstRange(of: idLength + id + [UInt8(reference.labels.count), 0])).upperBound
        bytes[start + 2] = bytes[start]  // the second label repeats the first
        bytes[start + 3] = bytes[start + 1]
        resealChecksum(&bytes)
        let error = decodeError(bytes)
        guard case let .file(.malformed(_, reason)) = error else {
            Issue.record("expected .malformed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("out of order or twice"), "\(reason)")
    }

    @Test("a model made by another extractor version is refused with a rebuild hint")
    func wrongExtractorVersion() throws {
        var bytes = try Fixtures.smallModel().encoded()
        // The extractor id "scene" (u32 length + 5 bytes) starts right after the 20-byte header.
        let versionOffset = 20 + 4 + 5
        #expect(bytes[versionOffset] == 1)
        bytes[versionOffset] = 9
        resealChecksum(&bytes)
        let error = decodeError(bytes)
        guard case .extractorMismatch = error else {
            Issue.record("expected .extractorMismatch, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("scene v9") == true)
        #expect(error?.description.contains("glimpse models build") == true)
    }

    @Test("changed extractor settings are refused")
    func wrongExtractorSettings() throws {
        let model = try Fixtures.smallModel()
        var parameters = SceneFeatureExtractor.Parameters()
        parameters.workingLongSide = 200
        let other = SceneFeatureExtractor(parameters: parameters)
        let foreign = try LabelModel(featureExtractor: other, vote: model.vote, vocabulary: model.vocabulary,
                                     references: model.references, vectors: model.vectors)
        guard case .extractorMismatch = decodeError(foreign.encoded()) else {
            Issue.record("a model with unknown extractor settings was accepted")
            return
        }
    }

    @Test("inconsistent parts are refused when a model is assembled")
    func invalidParts() throws {
        let model = try Fixtures.smallModel()
        #expect(throws: LabelModelError.self) {
            try LabelModel(extractor: model.extractor, vote: model.vote, vocabulary: model.vocabulary,
                           references: model.references, vectors: Array(model.vectors.dropLast()))
        }
        #expect(throws: LabelModelError.self) {
            try LabelModel(extractor: model.extractor, vote: model.vote, vocabulary: ["sky"],
                           references: model.references, vectors: model.vectors)
        }
        #expect(throws: LabelModelError.self) {
            try LabelModel(extractor: model.extractor, vote: VoteParameters(k: 0, weightPower: 1, threshold: 0.5),
                           vocabulary: model.vocabulary, references: model.references, vectors: model.vectors)
        }
    }

    private func decodeError(_ bytes: [UInt8]) -> LabelModelError? {
        do {
            _ = try LabelModel.decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    private func resealChecksum(_ bytes: inout [UInt8]) {
        let crc = CRC32.checksum(bytes[0..<(bytes.count - 4)])
        for i in 0..<4 { bytes[bytes.count - 4 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    }
}
