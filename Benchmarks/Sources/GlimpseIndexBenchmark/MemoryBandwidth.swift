#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GlimpseBasics

/// A plain memory-read loop: the bandwidth a single thread gets streaming through an array.
public enum MemoryBandwidth {
    /// One measurement: the best rate over the repetitions, by wall clock and by the thread's CPU time.
    public struct Measurement: Sendable, Hashable, Codable {
        /// Bytes ÷ the shortest wall-clock time, GB/s (10⁹ bytes).
        public var wallGBps: Double
        /// Bytes ÷ the shortest CPU time of the reading thread, GB/s: excludes time spent descheduled.
        public var cpuGBps: Double
    }

    /// Reads every float of `values` `repetitions` times and returns the best rates.
    ///
    /// The loop only adds the values up (16 lanes, 4 accumulators), so it is bound by memory, not compute.
    public static func measure(_ values: [Float], repetitions: Int) -> Measurement {
        let clock = ContinuousClock()
        var bestWall = Double.infinity
        var bestCPU = Double.infinity
        var sink: Float = 0
        for _ in 0..<max(1, repetitions) {
            let cpuStart = threadCPUSeconds()
            let start = clock.now
            sink += values.withUnsafeBufferPointer { sumAll($0) }
            bestWall = min(bestWall, (clock.now - start).seconds)
            bestCPU = min(bestCPU, threadCPUSeconds() - cpuStart)
        }
        // Keeps the sum alive so the loop is not optimised away.
        if sink == .infinity { bestWall += 1e-12 }
        let bytes = Double(values.count * 4)
        return Measurement(wallGBps: bytes / max(bestWall, 1e-12) / 1e9, cpuGBps: bytes / max(bestCPU, 1e-12) / 1e9)
    }

    /// CPU seconds used by the calling thread so far.
    public static func threadCPUSeconds() -> Double {
        var spec = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec) == 0 else { return 0 }
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    /// CPU seconds used by all threads of this process so far.
    public static func processCPUSeconds() -> Double {
        var spec = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec) == 0 else { return 0 }
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    private static func sumAll(_ buffer: UnsafeBufferPointer<Float>) -> Float {
        guard let base = buffer.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var a0 = SIMD16<Float>(), a1 = SIMD16<Float>(), a2 = SIMD16<Float>(), a3 = SIMD16<Float>()
        var i = 0
        let n = buffer.count
        // safe because i + 64 <= n: all four loads stay inside the buffer.
        while i + 64 <= n {
            a0 += raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self)
            a1 += raw.loadUnaligned(fromByteOffset: (i &+ 16) &* 4, as: SIMD16<Float>.self)
            a2 += raw.loadUnaligned(fromByteOffset: (i &+ 32) &* 4, as: SIMD16<Float>.self)
            a3 += raw.loadUnaligned(fromByteOffset: (i &+ 48) &* 4, as: SIMD16<Float>.self)
            i &+= 64
        }
        var sum = (a0 + a1 + a2 + a3).sum()
        while i < n {
            sum += buffer[i]
            i &+= 1
        }
        return sum
    }
}
