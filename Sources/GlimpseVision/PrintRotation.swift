import Foundation
import Synchronization
import GlimpseBasics

/// A fixed random rotation of feature prints, applied before they are coded one bit per component
/// (``PrintCodes``): the network's prints are non-negative and sparse, so a bit per raw component keeps
/// little of them; rotated, every component carries a share of the whole print and one bit each keeps
/// most of what tells prints apart. Rotating keeps every dot product, so similarities are unchanged.
///
/// The rotation is three rounds of: a random sign per component, a random permutation, and a Hadamard
/// transform of each block of ``blockSize`` components (scaled to stay orthogonal). It costs about
/// 10 operations per component and round, and depends only on the dimension and ``seed``.
struct PrintRotation: Sendable {
    /// The seed of every rotation: codes made with one are read with the same one.
    static let seed: UInt64 = 0x524F_5441_5445_3031
    /// The rounds of signs, permutation and block transform.
    static let rounds = 3

    let dimension: Int
    /// The Hadamard block: the largest power of two up to 256 that divides the dimension.
    let blockSize: Int
    private let signs: [Float]
    private let permutations: [Int32]

    init(dimension: Int) {
        self.dimension = dimension
        var block = 1
        while block < 256 && dimension % (block * 2) == 0 { block *= 2 }
        blockSize = block
        var generator = SeededGenerator(seed: Self.seed ^ UInt64(dimension))
        var signs: [Float] = [], permutations: [Int32] = []
        for _ in 0..<Self.rounds {
            for _ in 0..<dimension { signs.append(generator.next() & 1 == 0 ? 1 : -1) }
            var order = (0..<Int32(dimension)).map { $0 }
            for i in stride(from: dimension - 1, to: 0, by: -1) { order.swapAt(i, Int(generator.next() % UInt64(i + 1))) }
            permutations += order
        }
        self.signs = signs
        self.permutations = permutations
    }

    /// `vector` rotated (`dimension` values).
    func rotated(_ vector: UnsafeBufferPointer<Float>) -> [Float] {
        var x = Array(vector), scratch = [Float](repeating: 0, count: dimension)
        rotate(&x, scratch: &scratch)
        return x
    }

    /// Rotates `x` (`dimension` values) in place, with `scratch` (as long) as working space.
    func rotate(_ x: inout [Float], scratch: inout [Float]) {
        let scale = 1 / Float(blockSize).squareRoot()
        for round in 0..<Self.rounds {
            let base = round * dimension
            for j in 0..<dimension {
                let from = Int(permutations[base + j])
                scratch[j] = x[from] * signs[base + from]
            }
            hadamardBlocks(&scratch)
            for j in 0..<dimension { x[j] = scratch[j] * scale }
        }
    }

    /// `vector` turned back: the inverse of ``rotated(_:)`` (each round undone in reverse order; the scaled
    /// Hadamard transform is its own inverse).
    func unrotated(_ vector: [Float]) -> [Float] {
        var x = vector, scratch = [Float](repeating: 0, count: dimension)
        let scale = 1 / Float(blockSize).squareRoot()
        for round in (0..<Self.rounds).reversed() {
            let base = round * dimension
            for j in 0..<dimension { scratch[j] = x[j] }
            hadamardBlocks(&scratch)
            for j in 0..<dimension {
                let to = Int(permutations[base + j])
                x[to] = scratch[j] * scale * signs[base + to]
            }
        }
        return x
    }

    /// The unscaled Hadamard transform of each block of ``blockSize`` values of `x`, in place (the
    /// rotation's mixing step; scaled by `1/√blockSize` it is orthogonal and its own inverse).
    private func hadamardBlocks(_ x: inout [Float]) {
        for start in stride(from: 0, to: dimension, by: blockSize) {
            var h = 1
            while h < blockSize {
                for i in stride(from: start, to: start + blockSize, by: 2 * h) {
                    for j in i..<(i + h) {
                        let a = x[j], b = x[j + h]
                        x[j] = a + b
                        x[j + h] = a - b
                    }
                }
                h *= 2
            }
        }
    }

    /// The rotation of each row of `rows` (whole rows of ``dimension``), on `threads` threads.
    func rotated(rows: [Float], threads: Int) -> [Float] {
        let d = dimension, n = rows.count / d
        guard n > 0 else { return [] }
        let parts = max(1, min(threads, n / 256))
        let out = Mutex([[Float]](repeating: [], count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = (n * part / parts)..<(n * (part + 1) / parts)
            var chunk = [Float](), x = [Float](repeating: 0, count: d), scratch = [Float](repeating: 0, count: d)
            chunk.reserveCapacity(range.count * d)
            for r in range {
                for j in 0..<d { x[j] = rows[r * d + j] }
                rotate(&x, scratch: &scratch)
                chunk += x
            }
            out.withLock { $0[part] = chunk }
        }
        return out.withLock { $0.flatMap { $0 } }
    }
}
