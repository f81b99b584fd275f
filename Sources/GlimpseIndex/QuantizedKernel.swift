// The SIMD kernels of the int8-quantized index: float queries against byte codes.
//
// Each kernel reads exactly `count` elements from each pointer; callers guarantee that every pointer
// addresses at least `count` initialised elements (rows of a buffer whose length they checked).
//
// Bytes are widened without integer-to-float conversion instructions: 16 codes are loaded as four
// 32-bit words; masking and shifting the words gives four vectors holding the codes at positions
// (4k + j) for j = 0…3, and OR-ing each into the mantissa of 2²³ then subtracting 2²³ turns it into
// exact floats. The float operands are therefore stored block-permuted (see ``permute(_:)``); the
// tail after the last full block of 16 keeps its natural order.

/// Kernels that compare a float query with a row of 8-bit codes.
enum QuantizedKernel {
    /// Reorders each full block of 16 floats to match the lane order the kernels widen codes into:
    /// `out[16b + 4j + k] = in[16b + 4k + j]`. The tail is copied unchanged.
    static func permute(_ values: [Float]) -> [Float] {
        var out = values
        let blocks = values.count / 16
        for b in 0..<blocks {
            for j in 0..<4 {
                for k in 0..<4 { out[16 * b + 4 * j + k] = values[16 * b + 4 * k + j] }
            }
        }
        return out
    }

    /// The four code vectors of a 16-byte block, as floats, in permuted lane order.
    @inline(__always)
    private static func widen(_ codes: UnsafeRawPointer, at offset: Int)
        -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    {
        let words = SIMD4<UInt32>(littleEndianWords: codes.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self))
        let mask = SIMD4<UInt32>(repeating: 0xFF)
        let exponent = SIMD4<UInt32>(repeating: 0x4B00_0000)
        let bias = SIMD4<Float>(repeating: 8_388_608)
        let a = unsafeBitCast((words & mask) | exponent, to: SIMD4<Float>.self) - bias
        let b = unsafeBitCast(((words &>> 8) & mask) | exponent, to: SIMD4<Float>.self) - bias
        let c = unsafeBitCast(((words &>> 16) & mask) | exponent, to: SIMD4<Float>.self) - bias
        let d = unsafeBitCast((words &>> 24) | exponent, to: SIMD4<Float>.self) - bias
        return (a, b, c, d)
    }

    /// `Σ wⱼ (qⱼ − cⱼ)²` with `query` and `weights` block-permuted.
    @inline(__always)
    static func weightedSquaredDifference(
        _ query: UnsafePointer<Float>, _ weights: UnsafePointer<Float>, _ codes: UnsafePointer<UInt8>, count: Int
    ) -> Float {
        let rq = UnsafeRawPointer(query)
        let rw = UnsafeRawPointer(weights)
        return sum(codes, count: count) { f, a, b, c, d in
            let da = rq.loadUnaligned(fromByteOffset: f, as: SIMD4<Float>.self) - a
            let db = rq.loadUnaligned(fromByteOffset: f &+ 16, as: SIMD4<Float>.self) - b
            let dc = rq.loadUnaligned(fromByteOffset: f &+ 32, as: SIMD4<Float>.self) - c
            let dd = rq.loadUnaligned(fromByteOffset: f &+ 48, as: SIMD4<Float>.self) - d
            return (da * da * rw.loadUnaligned(fromByteOffset: f, as: SIMD4<Float>.self),
                    db * db * rw.loadUnaligned(fromByteOffset: f &+ 16, as: SIMD4<Float>.self),
                    dc * dc * rw.loadUnaligned(fromByteOffset: f &+ 32, as: SIMD4<Float>.self),
                    dd * dd * rw.loadUnaligned(fromByteOffset: f &+ 48, as: SIMD4<Float>.self))
        } element: { i in
            let d = query[i] - Float(codes[i])
            return d * d * weights[i]
        }
    }

    /// `Σ qⱼ cⱼ` with `query` block-permuted.
    @inline(__always)
    static func dot(_ query: UnsafePointer<Float>, _ codes: UnsafePointer<UInt8>, count: Int) -> Float {
        let rq = UnsafeRawPointer(query)
        return sum(codes, count: count) { f, a, b, c, d in
            (rq.loadUnaligned(fromByteOffset: f, as: SIMD4<Float>.self) * a,
             rq.loadUnaligned(fromByteOffset: f &+ 16, as: SIMD4<Float>.self) * b,
             rq.loadUnaligned(fromByteOffset: f &+ 32, as: SIMD4<Float>.self) * c,
             rq.loadUnaligned(fromByteOffset: f &+ 48, as: SIMD4<Float>.self) * d)
        } element: { i in
            query[i] * Float(codes[i])
        }
    }

    /// The sum over a row of `count` codes: `block` gives the four lane-vector terms of each full block of
    /// 16 (from the byte offset of its floats and its widened codes), `element` the term of each code of
    /// the tail. Both are inlined into the kernels above, so each compiles to its own loop.
    @inline(__always)
    private static func sum(
        _ codes: UnsafePointer<UInt8>, count: Int,
        block: (_ floatOffset: Int, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
            -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
        element: (Int) -> Float
    ) -> Float {
        let rc = UnsafeRawPointer(codes)
        var acc0 = SIMD4<Float>(), acc1 = SIMD4<Float>(), acc2 = SIMD4<Float>(), acc3 = SIMD4<Float>()
        var i = 0
        // safe because i + 16 <= count: each load reads inside the row.
        while i + 16 <= count {
            let (a, b, c, d) = widen(rc, at: i)
            let (ta, tb, tc, td) = block(i &* 4, a, b, c, d)
            acc0 += ta
            acc1 += tb
            acc2 += tc
            acc3 += td
            i &+= 16
        }
        var total = (acc0 + acc1 + acc2 + acc3).sum()
        // safe because i < count.
        while i < count {
            total += element(i)
            i &+= 1
        }
        return total
    }
}

extension SIMD4 where Scalar == UInt32 {
    /// Lanes read from little-endian memory, converted to this machine's byte order.
    @inline(__always)
    init(littleEndianWords raw: SIMD4<UInt32>) {
        #if _endian(little)
        self = raw
        #else
        self = SIMD4(raw[0].byteSwapped, raw[1].byteSwapped, raw[2].byteSwapped, raw[3].byteSwapped)
        #endif
    }
}
