// Sign codes and their Hamming distances: the module's one call into the C popcount kernel
// (`glimpse_hamming_codes`, hardware POPCNT where the CPU has it).
import CGlimpseVisionKernels

/// One-bit codes of vectors — bit *j* set when component *j* lies above a centre — and the Hamming
/// distances between them, which approximate angles between the vectors: the compact first pass of a
/// search that rescores its best candidates exactly.
public enum SignCodes {
    /// The 64-bit words of a code of `dimension` bits.
    @inlinable
    public static func words(dimension: Int) -> Int { (dimension + 63) / 64 }

    /// Writes the code of `vector` about `centre` into `code` (``words(dimension:)`` words; unused
    /// high bits are zero): bit `j % 64` of word `j / 64` is set when `vector[j] > centre[j]`.
    ///
    /// - Precondition: `centre.count == vector.count` and `code.count == words(dimension: vector.count)`.
    public static func encode(_ vector: UnsafeBufferPointer<Float>, about centre: [Float], into code: inout [UInt64]) {
        precondition(centre.count == vector.count && code.count == words(dimension: vector.count), "code size mismatch")
        for w in code.indices { code[w] = 0 }
        for j in 0..<vector.count where vector[j] > centre[j] {
            code[j >> 6] |= 1 << UInt64(j & 63)
        }
    }

    /// Writes the distance from `query` to each code of `codes` (contiguous codes of `query.count`
    /// words) into `distances`, resized to the number of codes.
    ///
    /// - Precondition: `codes.count` is a multiple of `query.count`, which is 1...1023.
    public static func distances(from query: [UInt64], to codes: UnsafeBufferPointer<UInt64>, into distances: inout [UInt16]) {
        let words = query.count
        precondition(words > 0 && words <= 1023 && codes.count % words == 0, "codes must be whole codes of the query's size")
        let count = codes.count / words
        if distances.count != count { distances = [UInt16](repeating: 0, count: count) }
        guard count > 0, let base = codes.baseAddress else { return }
        query.withUnsafeBufferPointer { q in
            distances.withUnsafeMutableBufferPointer { out in
                // Fenced: `codes` holds `count × words` words and `out` `count` values (checked above).
                glimpse_hamming_codes(q.baseAddress, base, words, count, out.baseAddress)
            }
        }
    }
}
