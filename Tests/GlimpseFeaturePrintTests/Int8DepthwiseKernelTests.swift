@testable import GlimpseFeaturePrint
import Testing

@Suite("The int8 VNNI depthwise kernel")
struct Int8DepthwiseKernelTests {
    /// The depthwise convolutions of EfficientNet-Lite0 at 224 × 224 (side, channels, kernel, stride; all
    /// SAME padding), then odd sides, ragged channel counts and no padding.
    static let shapes: [(side: Int, channels: Int, kernel: Int, stride: Int, same: Bool)] = [
        (112, 32, 3, 1, true), (112, 96, 3, 2, true), (56, 144, 3, 1, true), (56, 144, 5, 2, true),
        (28, 240, 5, 1, true), (28, 240, 3, 2, true), (14, 480, 3, 1, true), (14, 480, 5, 1, true),
        (14, 672, 5, 1, true), (14, 672, 5, 2, true), (7, 1152, 5, 1, true), (7, 1152, 3, 1, true),
        (13, 48, 3, 2, true), (15, 80, 5, 2, true), (9, 20, 3, 1, true), (11, 56, 5, 1, false), (10, 16, 3, 2, false),
    ]

    @Test("Gives XNNPACK's operator's bytes on random inputs, for every depthwise shape of the network",
          arguments: shapes.indices)
    func matchesXNNPACK(index: Int) throws {
        let shape = Self.shapes[index]
        var numbers = Support.Numbers(state: UInt64(100 + index))
        func bytes(_ count: Int, limit: Float) -> [Int8] {
            (0..<count).map { _ in Int8(clamping: Int((numbers.next() * limit).rounded(.down))) }
        }
        let clamped = index % 2 == 0
        let comparison = Int8DepthwiseComparison(
            height: shape.side, width: shape.side, channels: shape.channels, kernel: shape.kernel,
            stride: shape.stride, samePadding: shape.same, inputScale: 0.02, outputScale: 0.04,
            inputZeroPoint: -7, outputZeroPoint: 5, outputMin: clamped ? -100 : -128, outputMax: clamped ? 100 : 127)
        let c = shape.channels, taps = shape.kernel * shape.kernel
        let input = bytes(shape.side * shape.side * c, limit: 128)  // −128...127
        let weights = bytes(taps * c, limit: 127)  // −127...127, as the file's symmetric weights
        let bias = (0..<c).map { _ in Int32(numbers.next() * 5000) }
        // A sum's spread is about √taps × 74² (uniform codes); multipliers 0.02 × scale / 0.04 bring it to
        // about ±50 codes, so the outputs span the grid and few reach the clamps.
        let scales = (0..<c).map { _ in (1.2 + numbers.next()) * 0.018 / Float(taps).squareRoot() }
        guard let outputs = try comparison.run(input: input, weights: weights, bias: bias, weightScales: scales) else {
            return  // No AVX-512 VNNI here: the network keeps XNNPACK's depthwise operator.
        }
        let (vnni, xnnpack) = outputs
        #expect(vnni.count == comparison.outputHeight * comparison.outputWidth * c)
        let differing = zip(vnni, xnnpack).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(vnni.count) bytes differ")
        // Not a vacuous match: the outputs take many codes, few at the clamps.
        let atClamps = xnnpack.filter { $0 == comparison.outputMin || $0 == comparison.outputMax }.count
        #expect(Set(xnnpack).count > 50 && atClamps * 4 < xnnpack.count,
                "\(Set(xnnpack).count) codes, \(atClamps) at the clamps")
    }
}
