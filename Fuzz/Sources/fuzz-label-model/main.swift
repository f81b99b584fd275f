// Feeds label model files (GLMLABEL) to LabelModel.decode, as read at daemon start: as they are, then
// with the total length and the CRC-32 repaired so the body parser is reached. A model that loads must
// encode back to the same bytes and label both a reference's own vectors and a small picture.
import FuzzSupport
import GlimpseFiles
import GlimpseImage
import GlimpseLabels

/// A small picture for the scene extractor.
let picture: PixelBuffer = {
    let bytes = (0..<(12 * 8 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    do { return try PixelBuffer(width: 12, height: 8, pixelFormat: .rgb8, bytes: bytes) } catch {
        fatalError("cannot make the test picture: \(error)")
    }
}()

func check(_ bytes: [UInt8]) {
    let model: LabelModel
    do throws(LabelModelError) {
        model = try LabelModel.decode(bytes)
    } catch {
        FuzzCheck.require(!error.description.isEmpty, "an error without a description")
        return
    }
    FuzzCheck.require(model.encoded() == bytes, "the model does not encode back to its file")
    let predictor = LabelPredictor(model: model)
    for labels in [predictor.labels(forFeatures: Array(model.vectors(of: 0))), predictor.labels(for: picture)] {
        for label in labels {
            FuzzCheck.require(model.vocabulary.contains(label.label), "label \(label.label) is not in the vocabulary")
        }
    }
}

FuzzTarget.run { bytes in
    check(bytes)
    guard bytes.count >= 24, bytes.starts(with: Array("GLMLABEL".utf8)) else { return }
    var image = FileImage(bytes)
    image.store(UInt64(bytes.count), at: 12)
    image.store(CRC32.checksum(image.bytes.dropLast(4)), at: -4)
    if image.bytes != bytes { check(image.bytes) }
}
