public import GlimpseImage

/// The views of a reference photo whose feature prints are stored with it, so that a query showing
/// only part of the scene, or its mirror image, still finds a close print.
///
/// A camera picture of a place is rarely framed like its reference photo: it shows a part of it, or
/// the scene mirrored (a selfie camera). The whole-picture print of a crop to half the area is far
/// from the reference's, while the print of the matching part of the reference is close. So each
/// reference keeps the prints of: the whole photo, its mirror image, and five crops of two thirds
/// of each side (the four corners and the centre). A query's similarity to a reference is the best
/// over its views. The query itself is printed once, whole.
public enum FeaturePrintViews {
    /// The share of each side a crop view keeps.
    public static let cropSide = 2.0 / 3.0

    /// The number of views ``views(of:)`` returns.
    public static let count = 7

    /// The whole picture, its mirror image, then the top-left, top-right, bottom-left, bottom-right
    /// and centre crops (each ``cropSide`` of the width and of the height).
    public static func views(of image: PixelBuffer) -> [PixelBuffer] {
        let w = max(1, Int((Double(image.width) * cropSide).rounded()))
        let h = max(1, Int((Double(image.height) * cropSide).rounded()))
        let right = image.width - w, bottom = image.height - h
        return [
            image, image.mirroredHorizontally(),
            image.cropped(x: 0, y: 0, width: w, height: h),
            image.cropped(x: right, y: 0, width: w, height: h),
            image.cropped(x: 0, y: bottom, width: w, height: h),
            image.cropped(x: right, y: bottom, width: w, height: h),
            image.cropped(x: right / 2, y: bottom / 2, width: w, height: h),
        ]
    }
}

extension FeaturePrinterPool {
    /// The prints of every view of a reference photo (see ``FeaturePrintViews``), in view order.
    public func viewPrints(of image: PixelBuffer) throws(FeaturePrintError) -> [FeaturePrint] {
        try withPrinter { (printer) throws(FeaturePrintError) in
            var prints: [FeaturePrint] = []
            prints.reserveCapacity(FeaturePrintViews.count)
            for view in FeaturePrintViews.views(of: image) { prints.append(try printer.featurePrint(of: view)) }
            return prints
        }
    }
}
