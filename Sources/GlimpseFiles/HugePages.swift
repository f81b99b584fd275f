// The package's one call of `madvise` on heap memory (mappings of files have theirs in `MappedFile.swift`).
#if canImport(Glibc)
import Glibc
#endif

/// Backs large, long-lived arrays that are read at random — a catalog's descriptors, hash tables and print
/// codes — with 2 MB pages instead of 4 KB ones.
///
/// At 10⁴–10⁶ reference photos those arrays span gigabytes, and a lookup touches a few bytes here and there:
/// with 4 KB pages nearly every touch also misses the processor's translation cache, and at 10⁶ the page
/// tables themselves (16 MB for 8 GB) no longer stay in its caches. Linux gives 2 MB pages to heap memory
/// only when asked (`transparent_hugepage` set to `madvise`, the usual default), so Glimpse asks
/// (`Benchmarks/results/2026-12-07-huge-pages.md`: the keypoint shortlist about a tenth faster at 10⁴ and a
/// third at 10⁶).
///
/// The advice never changes an array's contents or lifetime, and a system that refuses it (an older kernel,
/// huge pages turned off, no free 2 MB blocks) leaves the memory as it was.
public enum HugePages {
    /// The size of one huge page on the platforms Glimpse runs on.
    public static let pageSize = 2 << 20
    /// Arrays smaller than this are left alone: they span a few huge pages at most.
    public static let least = 8 << 20

    /// Asks for the whole 2 MB pages inside `array`'s elements to be huge pages, now (`MADV_COLLAPSE`, Linux
    /// 6.1 and later, copies them into huge pages before returning) or else as the system finds time
    /// (`MADV_HUGEPAGE`).
    ///
    /// Call it once the array is complete and will no longer change: a later mutation that copies the
    /// storage leaves the copy without the advice.
    ///
    /// - Returns: how many bytes the system took the advice for (a multiple of ``pageSize``), 0 when the
    ///   array is smaller than ``least`` or the system refused.
    @discardableResult
    public static func advise<Element>(_ array: [Element]) -> Int {
        array.withUnsafeBytes { advise($0) }
    }

    /// ``advise(_:)`` for the bytes `bytes`.
    @discardableResult
    public static func advise(_ bytes: UnsafeRawBufferPointer) -> Int {
        advise(bytes, filled: true)
    }

    /// Asks for the whole 2 MB pages inside `bytes`, memory not written yet (an array's uninitialized
    /// capacity), to be huge pages when first written (`MADV_HUGEPAGE`): nothing is copied, unlike
    /// ``advise(_:)`` on memory already written, so a large array read from a file or computed should be
    /// advised this way before it is filled.
    ///
    /// - Returns: as ``advise(_:)``.
    @discardableResult
    public static func adviseBeforeFilling(_ bytes: UnsafeMutableRawBufferPointer) -> Int {
        advise(UnsafeRawBufferPointer(bytes), filled: false)
    }

    /// The advice: `MADV_COLLAPSE` first when the memory is `filled`, else `MADV_HUGEPAGE` alone.
    private static func advise(_ bytes: UnsafeRawBufferPointer, filled: Bool) -> Int {
        guard bytes.count >= least, let base = bytes.baseAddress else { return 0 }
        // Only pages wholly inside the elements: the advice never reaches memory the array does not own.
        let first = (UInt(bitPattern: base) + UInt(pageSize) - 1) & ~(UInt(pageSize) - 1)
        let end = (UInt(bitPattern: base) + UInt(bytes.count)) & ~(UInt(pageSize) - 1)
        guard end > first, let start = UnsafeMutableRawPointer(bitPattern: first) else { return 0 }
        let length = Int(end - first)
        #if os(Linux)
        if filled, madvise(start, length, collapse) == 0 { return length }
        if madvise(start, length, MADV_HUGEPAGE) == 0 { return length }
        #endif
        return 0
    }

    #if os(Linux)
    /// `MADV_COLLAPSE` (Linux 6.1), which the C library's headers may not name yet.
    private static let collapse: Int32 = 25
    #endif
}
