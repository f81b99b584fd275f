/// A bounded selection of the `k` nearest neighbours seen so far.
///
/// Internally a max-heap keyed by (distance, id), so the worst kept neighbour is at the root and each
/// offer costs O(log k). Ties in distance keep the smaller id, which makes every index's results
/// deterministic and comparable with the exact scan.
public struct TopK: Sendable {
    /// The number of neighbours kept at most.
    public let k: Int
    @usableFromInline var heap: [Neighbor]

    /// Creates an empty selection that keeps at most `k` neighbours.
    /// - Throws: ``IndexError/invalidK(_:)`` when `k` is negative.
    public init(k: Int) throws(IndexError) {
        guard k >= 0 else { throw .invalidK(k) }
        self.k = k
        heap = []
        heap.reserveCapacity(Swift.min(k, 4096))
    }

    /// The number of neighbours currently kept.
    public var count: Int { heap.count }

    /// Whether `k` neighbours are kept, so that a new one must beat ``worst`` to enter.
    @inlinable
    public var isFull: Bool { heap.count >= k }

    /// The worst kept neighbour, or `nil` when empty.
    public var worst: Neighbor? { heap.first }

    /// The distance a new neighbour must not exceed to be considered: infinity until the selection is full.
    @inlinable
    public var threshold: Float {
        heap.count >= k ? (heap.first?.distance ?? -Float.infinity) : Float.infinity
    }

    /// Offers a neighbour; it is kept if the selection is not full or it ranks before the worst kept one.
    @inlinable
    public mutating func offer(id: Int, distance: Float) {
        let candidate = Neighbor(id: id, distance: distance)
        if heap.count < k {
            heap.append(candidate)
            siftUp(heap.count - 1)
        } else if k > 0, candidate.ranks(before: heap[0]) {
            heap[0] = candidate
            siftDown(0)
        }
    }

    /// The kept neighbours, nearest first with ties by ascending id; the selection is left empty.
    public mutating func drainSorted() -> [Neighbor] {
        var result = heap
        heap.removeAll(keepingCapacity: true)
        result.sort { $0.ranks(before: $1) }
        return result
    }

    /// The kept neighbours, nearest first with ties by ascending id.
    public func sorted() -> [Neighbor] {
        heap.sorted { $0.ranks(before: $1) }
    }

    @usableFromInline
    mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent].ranks(before: heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    @usableFromInline
    mutating func siftDown(_ start: Int) {
        var parent = start
        let n = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < n else { return }
            var largest = left
            let right = left + 1
            if right < n, heap[left].ranks(before: heap[right]) { largest = right }
            guard heap[parent].ranks(before: heap[largest]) else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
