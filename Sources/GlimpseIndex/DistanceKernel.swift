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
        sum(a, b, count: count) { x, y in
            let d = x - y
            return d * d
        } element: { x, y in
            let d = x - y
            return d * d
        }
    }

    /// `Σ aᵢ bᵢ` over `count` floats.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        sum(a, b, count: count) { x, y in x * y } element: { x, y in x * y }
    }

    /// `Σ term(aᵢ, bᵢ)` over `count` floats: `lanes` computes the term 16 floats at a time (two
    /// accumulators over blocks of 32, then one block of 16), `element` on the tail. Both are inlined into
    /// the kernels above, so each compiles to its own vector loop.
    @inline(__always)
    private static func sum(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
        lanes: (SIMD16<Float>, SIMD16<Float>) -> SIMD16<Float>, element: (Float, Float) -> Float
    ) -> Float {
        let ra = UnsafeRawPointer(a)
        let rb = UnsafeRawPointer(b)
        let width = MemoryLayout<SIMD16<Float>>.stride
        var acc0 = SIMD16<Float>()
        var acc1 = SIMD16<Float>()
        var i = 0
        // safe because i + 32 <= count: both loads stay inside the `count` floats.
        while i + 32 <= count {
            let offset = i &* 4
            acc0 += lanes(ra.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self),
                          rb.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self))
            acc1 += lanes(ra.loadUnaligned(fromByteOffset: offset &+ width, as: SIMD16<Float>.self),
                          rb.loadUnaligned(fromByteOffset: offset &+ width, as: SIMD16<Float>.self))
            i &+= 32
        }
        // safe because i + 16 <= count.
        if i + 16 <= count {
            acc0 += lanes(ra.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self),
                          rb.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self))
            i &+= 16
        }
        var total = (acc0 + acc1).sum()
        // safe because i < count.
        while i < count {
            total += element(a[i], b[i])
            i &+= 1
        }
        return total
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
