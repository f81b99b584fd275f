import CGlimpseVisionKernels

/// Hamming-distance kernels over 256-bit descriptors stored as four `UInt64` words.
///
/// The loops live in the C target `CGlimpseVisionKernels`, which uses the hardware popcount
/// instruction when the CPU has it; these wrappers check bounds before handing pointers over.
public enum Hamming {
    /// Whether the kernels run on the hardware popcount instruction.
    public static var usesHardwarePopcount: Bool { glimpse_hamming_uses_hardware_popcount() != 0 }

    /// The distance between descriptor `i` of `a` and descriptor `j` of `b` (each four words per descriptor).
    public static func distance(_ a: [UInt64], _ i: Int, _ b: [UInt64], _ j: Int) -> Int {
        precondition(i >= 0 && 4 * i + 4 <= a.count && j >= 0 && 4 * j + 4 <= b.count, "descriptor index out of range")
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                // Fenced: both ranges were checked above.
                Int(glimpse_hamming256(pa.baseAddress! + 4 * i, pb.baseAddress! + 4 * j))
            }
        }
    }

    /// The nearest and second-nearest of `count` contiguous descriptors starting at descriptor
    /// `start` of `references` to descriptor `queryIndex` of `queries`.
    ///
    /// - Returns: the index of the nearest (relative to `start`, -1 when `count` is 0), its distance
    ///   and the second distance (257 when absent).
    public static func nearestTwo(
        query queries: [UInt64], _ queryIndex: Int, in references: [UInt64], start: Int, count: Int
    ) -> (index: Int, distance: Int, second: Int) {
        precondition(queryIndex >= 0 && 4 * queryIndex + 4 <= queries.count, "query index out of range")
        precondition(start >= 0 && count >= 0 && 4 * (start + count) <= references.count, "reference range out of range")
        var index: Int32 = -1
        var best: UInt32 = 257, second: UInt32 = 257
        queries.withUnsafeBufferPointer { q in
            references.withUnsafeBufferPointer { r in
                guard let qb = q.baseAddress, let rb = r.baseAddress else { return }
                glimpse_hamming_best2(qb + 4 * queryIndex, rb + 4 * start, count, &index, &best, &second)
            }
        }
        return (Int(index), Int(best), Int(second))
    }

    /// The nearest and second-nearest of the references' descriptors to every query descriptor, as
    /// ``nearestTwo(query:_:in:start:count:)`` gives them one at a time (ties included), in one call: on
    /// CPUs with AVX-512 the references are regrouped once and scanned eight at a time.
    ///
    /// - Returns: per query descriptor, the nearest reference's index relative to `start` (-1 when `count`
    ///   is 0), its distance and the second distance (257 when absent).
    public static func nearestTwoOfEach(
        queries: [UInt64], in references: [UInt64], start: Int, count: Int
    ) -> NearestTwoTable {
        precondition(queries.count % 4 == 0, "query words must be whole descriptors")
        precondition(start >= 0 && count >= 0 && 4 * (start + count) <= references.count, "reference range out of range")
        let n = queries.count / 4
        var table = NearestTwoTable(
            index: [Int32](repeating: -1, count: n), distance: [UInt32](repeating: 257, count: n),
            second: [UInt32](repeating: 257, count: n))
        guard n > 0 else { return table }
        queries.withUnsafeBufferPointer { q in
            references.withUnsafeBufferPointer { r in
                table.index.withUnsafeMutableBufferPointer { bi in
                    table.distance.withUnsafeMutableBufferPointer { bd in
                        table.second.withUnsafeMutableBufferPointer { sd in
                            // Fenced: n outputs each, the reference range was checked above.
                            guard let qb = q.baseAddress, let rb = r.baseAddress, let bip = bi.baseAddress,
                                  let bdp = bd.baseAddress, let sdp = sd.baseAddress else { return }
                            _ = glimpse_hamming_best2_all(qb, n, rb + 4 * start, count, bip, bdp, sdp)
                        }
                    }
                }
            }
        }
        return table
    }

    /// The distance from descriptor `queryIndex` of `queries` to each descriptor of `references`.
    public static func distances(query queries: [UInt64], _ queryIndex: Int, to references: [UInt64]) -> [UInt16] {
        precondition(queryIndex >= 0 && 4 * queryIndex + 4 <= queries.count, "query index out of range")
        let n = references.count / 4
        return [UInt16](unsafeUninitializedCapacity: n) { out, count in
            queries.withUnsafeBufferPointer { q in
                references.withUnsafeBufferPointer { r in
                    if n > 0, let qb = q.baseAddress, let rb = r.baseAddress, let ob = out.baseAddress {
                        glimpse_hamming_many(qb + 4 * queryIndex, rb, n, ob)
                    }
                }
            }
            count = n
        }
    }
}

/// The two nearest references of each query descriptor (``Hamming/nearestTwoOfEach(queries:in:start:count:)``).
public struct NearestTwoTable: Sendable, Equatable {
    /// Per query descriptor: the nearest reference's index relative to the range's start, or -1.
    public var index: [Int32]
    /// Per query descriptor: the nearest distance (257 when there is none).
    public var distance: [UInt32]
    /// Per query descriptor: the second-nearest distance (257 when there is none).
    public var second: [UInt32]
}
