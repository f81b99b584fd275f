/// BT.601 luma: the one colour-to-gray conversion of Glimpse.
///
/// Keypoints (`GlimpseVision`), gray conversion of buffers (``PixelBuffer/converted(to:)``) and the
/// scene features of label evaluation (`GlimpseLabels`) all weigh red, green and blue with these
/// weights; bytes go through their 16-bit fixed-point form, rounded to nearest, and floats through the
/// weights themselves.
public enum Luma {
    /// The weight of red, 0.299.
    public static let red: Float = 0.299
    /// The weight of green, 0.587.
    public static let green: Float = 0.587
    /// The weight of blue, 0.114.
    public static let blue: Float = 0.114

    /// The luma of one pixel of bytes, rounded to nearest: the weights in 16-bit fixed point (19595,
    /// 38470 and 7471, each the weight × 65536 rounded; they sum to 65536, so white stays 255).
    @inline(__always)
    public static func of(red r: UInt8, green g: UInt8, blue b: UInt8) -> UInt8 {
        let value = 19_595 &* UInt32(r) &+ 38_470 &* UInt32(g) &+ 7_471 &* UInt32(b) &+ 32_768
        return UInt8(truncatingIfNeeded: value >> 16)
    }

    /// The luma of one pixel of floats (any common scale, for example 0…1).
    @inline(__always)
    public static func of(red r: Float, green g: Float, blue b: Float) -> Float {
        0.299 * r + 0.587 * g + 0.114 * b
    }

    /// Writes the luma of `count` pixels of `channels` interleaved bytes each (3 for RGB, 4 for RGBA,
    /// whose alpha is ignored; 1 copies gray) from `source` into `destination`.
    static func convertRow(
        _ source: UnsafePointer<UInt8>, channels: Int, into destination: UnsafeMutablePointer<UInt8>, count: Int
    ) {
        switch channels {
        case 1: destination.update(from: source, count: count)
        case 3: convertRow(source, stride: 3, into: destination, count: count)
        default: convertRow(source, stride: 4, into: destination, count: count)
        }
    }

    @inline(__always)
    static func convertRow(
        _ source: UnsafePointer<UInt8>, stride: Int, into destination: UnsafeMutablePointer<UInt8>, count: Int
    ) {
        var p = source
        for x in 0..<count {
            destination[x] = of(red: p[0], green: p[1], blue: p[2])
            p += stride
        }
    }

    /// The luma of three planes of floats, element by element, in eight-wide SIMD steps.
    ///
    /// - Precondition: the planes have the same length.
    public static func of(red: [Float], green: [Float], blue: [Float]) -> [Float] {
        precondition(red.count == green.count && green.count == blue.count, "luma planes differ in length")
        let count = red.count
        return [Float](unsafeUninitializedCapacity: count) { out, initialized in
            red.withUnsafeBufferPointer { r in
                green.withUnsafeBufferPointer { g in
                    blue.withUnsafeBufferPointer { b in
                        guard let rp = r.baseAddress, let gp = g.baseAddress, let bp = b.baseAddress,
                              let op = out.baseAddress else { return }
                        let wr = SIMD8<Float>(repeating: Self.red), wg = SIMD8<Float>(repeating: Self.green)
                        let wb = SIMD8<Float>(repeating: Self.blue)
                        var i = 0
                        while i + 8 <= count {
                            let r8 = UnsafeRawPointer(rp + i).loadUnaligned(as: SIMD8<Float>.self)
                            let g8 = UnsafeRawPointer(gp + i).loadUnaligned(as: SIMD8<Float>.self)
                            let b8 = UnsafeRawPointer(bp + i).loadUnaligned(as: SIMD8<Float>.self)
                            let rg: SIMD8<Float> = wr * r8 + wg * g8
                            let v: SIMD8<Float> = rg + wb * b8
                            UnsafeMutableRawPointer(op + i).storeBytes(of: v, as: SIMD8<Float>.self)
                            i += 8
                        }
                        while i < count {
                            op[i] = of(red: rp[i], green: gp[i], blue: bp[i])
                            i += 1
                        }
                    }
                }
            }
            initialized = count
        }
    }
}

extension PixelBuffer {
    /// The luma (``Luma``) of every pixel as packed rows of `width` bytes; gray buffers are copied.
    public func lumaPlane() -> [UInt8] {
        let channels = pixelFormat.bytesPerPixel, stride = bytesPerRow, w = width, h = height
        return [UInt8](unsafeUninitializedCapacity: w * h) { out, initialized in
            withUnsafeBytes { source in
                guard let src = source.baseAddress?.assumingMemoryBound(to: UInt8.self),
                      let dst = out.baseAddress else { return }
                for y in 0..<h { Luma.convertRow(src + y * stride, channels: channels, into: dst + y * w, count: w) }
            }
            initialized = w * h
        }
    }
}
