#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small, fast, seedable random number generator (SplitMix64) for reproducible index builds and data.
///
/// The same seed always yields the same sequence on every platform, which makes graph construction and
/// synthetic benchmark data deterministic.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `[0, 1)` with 24 bits of precision.
    public mutating func nextUnitFloat() -> Float {
        Float(next() >> 40) * (1.0 / 16_777_216.0)
    }

    /// A uniform value in `(0, 1]` with 53 bits of precision; never zero, so its logarithm is finite.
    public mutating func nextOpenUnitDouble() -> Double {
        (Double(next() >> 11) + 1) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// Two independent standard normal values (Box–Muller).
    public mutating func nextGaussianPair() -> (Float, Float) {
        let u1 = nextOpenUnitDouble()
        let u2 = nextOpenUnitDouble()
        let radius = (-2 * log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        return (Float(radius * cos(angle)), Float(radius * sin(angle)))
    }
}
