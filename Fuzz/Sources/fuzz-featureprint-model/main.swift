// Feeds feature-print model files (GLMFPRNT) to FeaturePrintModel.decode, as read at daemon start: as
// they are, then with the total length and the CRC-32 repaired so the layer parser is reached. A model
// that loads must encode and decode to itself; a small one (input ≤ 32 px, ≤ 200,000 parameters) is
// built on XNNPACK (CGlimpseFeaturePrint) and run on a small picture.
import FuzzSupport
import GlimpseFeaturePrint
import GlimpseFiles
import GlimpseImage

/// A small picture to print.
let picture: PixelBuffer = {
    let bytes = (0..<(20 * 14 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 53) }
    do { return try PixelBuffer(width: 20, height: 14, pixelFormat: .rgb8, bytes: bytes) } catch {
        fatalError("cannot make the test picture: \(error)")
    }
}()

func check(_ bytes: [UInt8]) {
    let model: FeaturePrintModel
    do throws(FeaturePrintModelError) {
        model = try FeaturePrintModel.decode(bytes)
    } catch {
        FuzzCheck.require(!error.description.isEmpty, "an error without a description")
        return
    }
    let encoded = model.encoded()
    do {
        let again = try FeaturePrintModel.decode(encoded)
        FuzzCheck.require(again.encoded() == encoded, "encoding the decoded model changes it")
    } catch {
        fatalError("fuzz check failed: an encoded model does not decode: \(error)")
    }
    guard model.input.size <= 32, model.parameterCount <= 200_000 else { return }
    do throws(FeaturePrintError) {
        let printer = try FeaturePrinter(model: model)
        let print = try printer.featurePrint(of: picture)
        FuzzCheck.require(print.dimension == model.embeddingDimension,
                          "a print of \(print.dimension) values from an embedding of \(model.embeddingDimension)")
    } catch {
        FuzzCheck.require(!error.description.isEmpty, "an error without a description")
    }
}

FuzzTarget.run { bytes in
    check(bytes)
    guard bytes.count >= 24, bytes.starts(with: Array("GLMFPRNT".utf8)) else { return }
    var image = FileImage(bytes)
    image.store(UInt64(bytes.count), at: 12)
    image.store(CRC32.checksum(image.bytes.dropLast(4)), at: -4)
    if image.bytes != bytes { check(image.bytes) }
}
