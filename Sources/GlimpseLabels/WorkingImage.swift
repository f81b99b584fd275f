import GlimpseImage

/// A small floating-point copy of a picture (red, green and blue planes in 0…1) on which scene
/// features are computed.
///
/// The picture is box-filtered down (`PixelBuffer.boxFilteredPlanes(width:height:)` of `GlimpseImage`)
/// so that its long side is at most a given length; smaller pictures keep their size. Every plane is one
/// contiguous array of `width × height` values, row by row.
struct WorkingImage: Sendable {
    let width: Int
    let height: Int
    var red: [Float]
    var green: [Float]
    var blue: [Float]

    /// Box-filters `image` so that its long side is at most `longSide` pixels.
    init(_ image: PixelBuffer, longSide: Int) {
        let scale = max(1.0, Double(max(image.width, image.height)) / Double(max(1, longSide)))
        let outWidth = max(1, Int((Double(image.width) / scale).rounded()))
        let outHeight = max(1, Int((Double(image.height) / scale).rounded()))
        width = outWidth
        height = outHeight
        (red, green, blue) = image.boxFilteredPlanes(width: outWidth, height: outHeight)
    }

    /// Creates an image from planes that already have the given size (used by tests).
    init(width: Int, height: Int, red: [Float], green: [Float], blue: [Float]) {
        precondition(red.count == width * height && green.count == red.count && blue.count == red.count)
        self.width = width
        self.height = height
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Luminance (``Luma``, the BT.601 weights) of every pixel, in 0…1.
    func luminance() -> [Float] {
        Luma.of(red: red, green: green, blue: blue)
    }
}
