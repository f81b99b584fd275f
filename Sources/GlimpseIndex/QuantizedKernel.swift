// The SIMD kernels of the int8-quantized index: float queries against byte codes.
//
// Each kernel reads exactly `count` elements from each pointer; callers guarantee that every pointer
// addresses at least `count` initialised elements (rows of a buffer whose length they checked).

/// Kernels that compare a float query with a row of 8-bit codes.
enum QuantizedKernel {
    /// `Σ wⱼ (qⱼ − cⱼ)²`, the squared Euclidean distance in code space with per-dimension weights.
    @inline(__always)
    static func weightedSquaredDifference(
        _ query: UnsafePointer<Float>, _ weights: UnsafePointer<Float>, _ codes: UnsafePointer<UInt8>, count: Int
    ) -> Float {
        let rq = UnsafeRawPointer(query)
        let rw = UnsafeRawPointer(weights)
        let rc = UnsafeRawPointer(codes)
        var acc = SIMD16<Float>()
        var i = 0
        // safe because i + 16 <= count: each load reads 16 elements inside the row.
        while i + 16 <= count {
            let c = SIMD16<Float>(rc.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
            let d = rq.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self) - c
            acc += d * d * rw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self)
            i &+= 16
        }
        var sum = acc.sum()
        // safe because i < count.
        while i < count {
            let d = query[i] - Float(codes[i])
            sum += d * d * weights[i]
            i &+= 1
        }
        return sum
    }

    /// `Σ qⱼ cⱼ`.
    @inline(__always)
    static func dot(_ query: UnsafePointer<Float>, _ codes: UnsafePointer<UInt8>, count: Int) -> Float {
        let rq = UnsafeRawPointer(query)
        let rc = UnsafeRawPointer(codes)
        var acc = SIMD16<Float>()
        var i = 0
        // safe because i + 16 <= count.
        while i + 16 <= count {
            let c = SIMD16<Float>(rc.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
            acc += rq.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self) * c
            i &+= 16
        }
        var sum = acc.sum()
        // safe because i < count.
        while i < count {
            sum += query[i] * Float(codes[i])
            i &+= 1
        }
        return sum
    }
}
