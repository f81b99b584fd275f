/// All weights and biases of a model (or its int8 weights, scales or int32 biases) in one 64-byte-aligned
/// block that never moves and is never written after it is filled, so the engine may keep pointers into
/// it for as long as it holds the arena.
///
/// The unsafe part: the block is written only inside `init` (by `fill`, before any other code can
/// see the arena), then only read; that is why the class may be shared between threads.
final class ParameterArena<Element: BitwiseCopyable>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Element>

    /// An arena of `count` elements (zero bytes), then handed to `fill` to write.
    init<E: Error>(count: Int, fill: (UnsafeMutableBufferPointer<Element>) throws(E) -> Void) throws(E) {
        let bytes = max(count, 1) * MemoryLayout<Element>.stride
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        storage = UnsafeMutableBufferPointer(start: raw.bindMemory(to: Element.self, capacity: max(count, 1)),
                                             count: count)
        try fill(storage) // when it throws, deinit frees the block (every stored property is set)
    }

    deinit { storage.baseAddress.map { UnsafeMutableRawPointer($0).deallocate() } }

    /// The number of elements.
    var count: Int { storage.count }

    /// The elements in `range`, copied.
    func values(_ range: Range<Int>) -> [Element] { Array(storage[range]) }

    /// The element at `index`.
    subscript(index: Int) -> Element { storage[index] }

    /// The address of element `offset`, valid while this arena is alive; for the engine only.
    func address(of offset: Int) -> UnsafePointer<Element>? {
        guard offset >= 0, offset < storage.count, let base = storage.baseAddress else { return nil }
        return UnsafePointer(base + offset)
    }
}

/// Conversions between IEEE-754 binary16 bit patterns and `Float`, portable to every platform
/// (`Float16` is missing on some).
enum Half {
    /// The `Float` of the binary16 bit pattern `bits` (exact: every binary16 value is a `Float`).
    static func float(_ bits: UInt16) -> Float {
        let sign = UInt32(bits & 0x8000) << 16
        let exponent = UInt32(bits >> 10) & 0x1F
        let mantissa = UInt32(bits & 0x3FF)
        switch exponent {
        case 0:
            // Zero or subnormal: mantissa × 2^-24.
            let magnitude = Float(mantissa) * 0x1p-24
            return sign != 0 ? -magnitude : magnitude
        case 0x1F:
            return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
        default:
            return Float(bitPattern: sign | ((exponent + 112) << 23) | (mantissa << 13))
        }
    }

    /// The binary16 bit pattern nearest to `value` (round to nearest, ties to even; overflow to
    /// infinity; NaN stays NaN).
    static func bits(_ value: Float) -> UInt16 {
        let pattern = value.bitPattern
        let sign = UInt16((pattern >> 16) & 0x8000)
        let exponent = Int((pattern >> 23) & 0xFF)
        let mantissa = pattern & 0x7F_FFFF
        if exponent == 0xFF { return sign | 0x7C00 | (mantissa != 0 ? 0x200 : 0) }
        let unbiased = exponent - 127
        if unbiased > 15 { return sign | 0x7C00 }
        if unbiased >= -14 {
            // Normal: keep 10 mantissa bits, round the 13 dropped ones.
            var half = UInt32(unbiased + 15) << 10 | (mantissa >> 13)
            let rest = mantissa & 0x1FFF
            if rest > 0x1000 || (rest == 0x1000 && (half & 1) != 0) { half += 1 } // may carry into the exponent
            return sign | UInt16(half)
        }
        if unbiased < -25 { return sign }
        // Subnormal: the value in units of 2^-24, rounded.
        let full = mantissa | 0x80_0000
        let shift = UInt32(-unbiased - 1) // 14...24
        var half = full >> shift
        let rest = full & ((1 << shift) - 1)
        let halfway = UInt32(1) << (shift - 1)
        if rest > halfway || (rest == halfway && (half & 1) != 0) { half += 1 }
        return sign | UInt16(half)
    }

    /// `value` rounded to the nearest binary16 value.
    static func rounded(_ value: Float) -> Float { float(bits(value)) }
}
