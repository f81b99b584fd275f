/// A graph node and its distance to the current query, ordered by (distance, node).
struct Candidate: Sendable {
    var distance: Float
    var node: UInt32

    @inline(__always)
    func ranks(before other: Candidate) -> Bool {
        distance < other.distance || (distance == other.distance && node < other.node)
    }
}

/// A binary heap of candidates: nearest at the root for a min-heap, farthest for a max-heap.
///
/// Storage is kept between searches (``removeAll()`` keeps capacity) so a search allocates nothing.
struct CandidateHeap {
    private(set) var items: [Candidate] = []
    let isMaxHeap: Bool

    init(isMaxHeap: Bool, capacity: Int) {
        self.isMaxHeap = isMaxHeap
        items.reserveCapacity(capacity)
    }

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }
    /// The root: the nearest candidate (min-heap) or the farthest (max-heap).
    var top: Candidate? { items.first }

    @inline(__always)
    private func above(_ a: Candidate, _ b: Candidate) -> Bool {
        isMaxHeap ? b.ranks(before: a) : a.ranks(before: b)
    }

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    mutating func push(_ candidate: Candidate) {
        items.append(candidate)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) >> 1
            guard above(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func pop() -> Candidate? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return first }
        items[0] = last
        var parent = 0
        let n = items.count
        while true {
            let left = 2 * parent + 1
            guard left < n else { break }
            var best = left
            if left + 1 < n, above(items[left + 1], items[left]) { best = left + 1 }
            guard above(items[best], items[parent]) else { break }
            items.swapAt(best, parent)
            parent = best
        }
        return first
    }
}
