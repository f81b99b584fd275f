// The SIMD distance kernels: the only place in the module that reads float vectors through raw pointers.
//
// Each kernel reads exactly `count` floats from each pointer. Callers guarantee that both pointers address
// at least `count` initialised floats; every call site takes them from a buffer whose length it has checked.
// Products are accumulated with a separate multiply and add (not `addingProduct`), which lowers to plain
// vector instructions on every x86-64 and arm64 target instead of a per-lane `fma` call.

/// Distance kernels over contiguous `Float` storage.
enum DistanceKernel {
    /// `Σ (aᵢ − bᵢ)²` over `count` floats.
    @inline(__always)
    static func squaredEuclidean(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        let ra = UnsafeRawPointer(a)
        let rb = UnsafeRawPointer(b)
        let width = MemoryLayout<SIMD16<Float>>.stride
        var acc0 = SIMD16<Float>()
        var acc1 = SIMD16<Float>()
        var i = 0
        // safe because i + 32 <= count: both loads stay inside the `count` floats.
        while i + 32 <= count {
            let offset = i &* 4
            let d0 = ra.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                - rb.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
            let d1 = ra.loadUnaligned(fromByteOffset: offset &+ width, as: SIMD16<Float>.self)
                - rb.loadUnaligned(fromByteOffset: offset &+ width, as: SIMD16<Float>.self)
            acc0 += d0 * d0
            acc1 += d1 * d1
            i &+= 32
        }
        // safe because i + 16 <= count.
        if i + 16 <= count {
            let d = ra.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self)
                - rb.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self)
            acc0 += d * d
            i &+= 16
        }
        var sum = (acc0 + acc1).sum()
        // safe because i < count.
        while i < count {
            let d = a[i] - b[i]
            sum += d * d
            i &+= 1
        }
        return sum
    }

    /// `Σ aᵢ bᵢ` over `count` floats.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        let ra = UnsafeRawPointer(a)
        let rb = UnsafeRawPointer(b)
        let width = MemoryLayout<SIMD16<Float>>.stride
        var acc0 = SIMD16<Float>()
        var acc1 = SIMD16<Float>()
        var i = 0
        // safe because i + 32 <= count.
        while i + 32 <= count {
            let offset = i &* 4
            acc0 += ra.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                * rb.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
            acc1 += ra.loadUnaligned(fromByteOffset: offset &+ width, as: SIMD16<Float>.self)
                * rb.loadUnaligned(fromByteOffset: offset &+ width, as: SIMD16<Float>.self)
            i &+= 32
        }
        // safe because i + 16 <= count.
        if i + 16 <= count {
            acc0 += ra.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self)
                * rb.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self)
            i &+= 16
        }
        var sum = (acc0 + acc1).sum()
        // safe because i < count.
        while i < count {
            sum += a[i] * b[i]
            i &+= 1
        }
        return sum
    }

    /// The distance under `metric` between two vectors already prepared for it (unit length for cosine).
    @inline(__always)
    static func distance(
        _ metric: DistanceMetric, _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int
    ) -> Float {
        switch metric {
        case .squaredEuclidean: squaredEuclidean(a, b, count: count)
        case .cosine: 1 - dot(a, b, count: count)
        case .innerProduct: -dot(a, b, count: count)
        }
    }
}

extension DistanceMetric {
    /// The distance between two equal-length vectors under this metric, computed without SIMD.
    ///
    /// Cosine normalises both vectors here, so any vectors may be passed. This is the reference the
    /// indexes are tested against; it allocates nothing but is not meant for hot loops.
    /// - Precondition: `a.count == b.count`.
    public func referenceDistance(_ a: [Float], _ b: [Float]) -> Float {
        precondition(a.count == b.count, "referenceDistance needs vectors of equal length")
        switch self {
        case .squaredEuclidean:
            var sum: Float = 0
            for i in a.indices { sum += (a[i] - b[i]) * (a[i] - b[i]) }
            return sum
        case .cosine:
            var dot: Float = 0, na: Float = 0, nb: Float = 0
            for i in a.indices {
                dot += a[i] * b[i]
                na += a[i] * a[i]
                nb += b[i] * b[i]
            }
            guard na > 0, nb > 0 else { return 1 }
            return 1 - dot / (na.squareRoot() * nb.squareRoot())
        case .innerProduct:
            var dot: Float = 0
            for i in a.indices { dot += a[i] * b[i] }
            return -dot
        }
    }
}
