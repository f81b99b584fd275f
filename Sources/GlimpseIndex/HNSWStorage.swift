// The memory of an HNSW graph: the one type in the module that stores raw pointers.
//
// Layout, fixed at allocation:
// - `vectors`: `nodeCount × dimension` floats, row by row, prepared for the metric;
// - `level0`: `nodeCount` blocks of `1 + maxLinks0` UInt32s: a link count, then the links;
// - `upper`: one block of `1 + maxLinks` UInt32s per (node, level ≥ 1), the blocks of a node consecutive,
//   the first at `upperStart[node]` (in blocks);
// - `levels`: the top level of each node.
// Every node position and every link is `< nodeCount`; the builder and the file loader guarantee it, and
// `validateLinks()` checks it for loaded files.

/// Fixed-size storage of an HNSW graph, written only while it is being built or loaded, then read-only.
///
/// - warning: Pointers handed out by the accessors must not escape the owning ``HNSWIndex``.
final class HNSWStorage: @unchecked Sendable {
    // @unchecked Sendable because: after the builder or loader finishes, nothing writes to this memory; the
    // builder writes only from phases that partition nodes between threads (see HNSWBuilder).
    let nodeCount: Int
    let dimension: Int
    let maxLinks: Int
    let maxLinks0: Int
    let vectors: UnsafeMutablePointer<Float>
    let level0: UnsafeMutablePointer<UInt32>
    let upper: UnsafeMutablePointer<UInt32>
    let upperStart: UnsafeMutablePointer<UInt32>
    let levels: UnsafeMutablePointer<UInt8>
    let upperBlockCount: Int

    var stride0: Int { 1 + maxLinks0 }
    var strideUpper: Int { 1 + maxLinks }

    /// Allocates zeroed storage for `levels.count` nodes with the given top levels.
    init(dimension: Int, maxLinks: Int, levels nodeLevels: [UInt8]) {
        nodeCount = nodeLevels.count
        self.dimension = dimension
        self.maxLinks = maxLinks
        maxLinks0 = 2 * maxLinks
        vectors = .allocate(capacity: max(1, nodeCount * dimension))
        vectors.initialize(repeating: 0, count: max(1, nodeCount * dimension))
        level0 = .allocate(capacity: max(1, nodeCount * (1 + 2 * maxLinks)))
        level0.initialize(repeating: 0, count: max(1, nodeCount * (1 + 2 * maxLinks)))
        upperStart = .allocate(capacity: max(1, nodeCount))
        levels = .allocate(capacity: max(1, nodeCount))
        var blocks = 0
        for (node, level) in nodeLevels.enumerated() {
            upperStart[node] = UInt32(truncatingIfNeeded: blocks)
            levels[node] = level
            blocks += Int(level)
        }
        upperBlockCount = blocks
        upper = .allocate(capacity: max(1, blocks * (1 + maxLinks)))
        upper.initialize(repeating: 0, count: max(1, blocks * (1 + maxLinks)))
    }

    deinit {
        vectors.deallocate()
        level0.deallocate()
        upper.deallocate()
        upperStart.deallocate()
        levels.deallocate()
    }

    /// The prepared vector of `node`.
    @inline(__always)
    func vector(_ node: UInt32) -> UnsafeMutablePointer<Float> {
        assert(Int(node) < nodeCount)
        return vectors + Int(node) &* dimension
    }

    /// The link block (count, then links) of `node` at `level`.
    @inline(__always)
    func linkBlock(_ node: UInt32, level: Int) -> UnsafeMutablePointer<UInt32> {
        assert(Int(node) < nodeCount && level <= Int(levels[Int(node)]))
        if level == 0 { return level0 + Int(node) &* stride0 }
        return upper + (Int(upperStart[Int(node)]) &+ level &- 1) &* strideUpper
    }

    /// The links of `node` at `level`.
    @inline(__always)
    func links(_ node: UInt32, level: Int) -> UnsafeBufferPointer<UInt32> {
        let block = linkBlock(node, level: level)
        return UnsafeBufferPointer(start: block + 1, count: Int(block[0]))
    }

    /// The largest number of links a node may have at `level`.
    @inline(__always)
    func capacity(level: Int) -> Int { level == 0 ? maxLinks0 : maxLinks }

    /// Replaces the links of `node` at `level`; `newLinks.count` must not exceed ``capacity(level:)``.
    @inline(__always)
    func setLinks(_ node: UInt32, level: Int, _ newLinks: UnsafeBufferPointer<UInt32>) {
        precondition(newLinks.count <= capacity(level: level), "HNSW link list overflow")
        let block = linkBlock(node, level: level)
        block[0] = UInt32(truncatingIfNeeded: newLinks.count)
        if let source = newLinks.baseAddress { (block + 1).update(from: source, count: newLinks.count) }
    }

    /// Whether every stored link count fits its block and every link names an existing node.
    func validateLinks() -> Bool {
        for node in 0..<nodeCount {
            for level in 0...Int(levels[node]) {
                let block = linkBlock(UInt32(node), level: level)
                guard Int(block[0]) <= capacity(level: level) else { return false }
                for link in UnsafeBufferPointer(start: block + 1, count: Int(block[0]))
                where Int(link) >= nodeCount || Int(link) == node || Int(levels[Int(link)]) < level {
                    return false
                }
            }
        }
        return true
    }
}
