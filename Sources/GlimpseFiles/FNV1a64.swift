/// FNV-1a, 64-bit: a stable identity hash for names and cache keys (feature-cache keys and file names,
/// entity tags). Not a file checksum (files use ``CRC32``) and not for anything an attacker chooses
/// to collide. Unlike Swift's `Hasher`, the same bytes give the same value in every process.
package struct FNV1a64: Sendable, Equatable {
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of the bytes fed so far.
    package var value: UInt64 { state }

    /// Starts a hash over no bytes.
    package init() {}

    /// The hash of `bytes`.
    @inlinable
    package static func hash<C: Collection<UInt8>>(_ bytes: C) -> UInt64 {
        var hasher = FNV1a64()
        hasher.add(bytes)
        return hasher.value
    }

    /// Feeds `bytes` into the hash.
    @inlinable
    package mutating func add<C: Collection<UInt8>>(_ bytes: C) {
        var h = state
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        state = h
    }

    /// Feeds the eight little-endian bytes of `word` into the hash.
    @inlinable
    package mutating func add(_ word: UInt64) {
        withUnsafeBytes(of: word.littleEndian) { add($0) }
    }

    /// The hash as 16 lowercase hexadecimal digits.
    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
