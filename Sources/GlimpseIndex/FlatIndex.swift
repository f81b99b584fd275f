/// An exact nearest-neighbour index: a linear scan over contiguous `Float` storage.
///
/// Vectors live in one array, `count × dimension` floats, row by row; a search computes every distance
/// with a SIMD kernel and keeps the best `k` in a bounded heap. Exact, so it is the oracle the
/// approximate ``HNSWIndex`` is tested against. A value type: copies share storage until mutated.
public struct FlatIndex: NearestNeighborIndex {
    /// The number of components of every vector.
    public let dimension: Int
    /// How distances are measured.
    public let metric: DistanceMetric
    /// The stored vectors, row by row, as the kernels use them (unit length for cosine).
    public private(set) var vectors: [Float]
    /// The id of each stored vector, by position.
    public private(set) var ids: [Int]
    private var positionByID: [Int: Int]

    /// Creates an empty index for vectors of `dimension` components.
    /// - Throws: ``IndexError/invalidDimension(_:)`` when `dimension` is not in `1...IndexLimits.maximumDimension`.
    public init(dimension: Int, metric: DistanceMetric) throws(IndexError) {
        guard (1...IndexLimits.maximumDimension).contains(dimension) else { throw .invalidDimension(dimension) }
        self.dimension = dimension
        self.metric = metric
        vectors = []
        ids = []
        positionByID = [:]
    }

    /// Creates an index holding `vectors` with ids `0..<vectors.count`.
    /// - Throws: ``IndexError`` when the dimension is unusable or a vector is the wrong length or non-finite.
    public init(dimension: Int, metric: DistanceMetric, vectors: [[Float]]) throws(IndexError) {
        try self.init(dimension: dimension, metric: metric)
        reserveCapacity(vectors.count)
        for vector in vectors { try add(vector) }
    }

    /// Creates an index from `count × dimension` floats laid out row by row, with ids `0..<count`.
    /// - Throws: ``IndexError`` when the dimension is unusable, the length is not a multiple of it,
    ///   or a component is non-finite.
    public init(dimension: Int, metric: DistanceMetric, rowMajor: [Float]) throws(IndexError) {
        try self.init(dimension: dimension, metric: metric)
        guard rowMajor.count % dimension == 0 else {
            throw .invalidParameter(
                name: "rowMajor.count", value: rowMajor.count, reason: "pass a multiple of the dimension \(dimension)")
        }
        let rows = rowMajor.count / dimension
        guard rows <= IndexLimits.maximumCount else { throw .tooManyVectors(rows) }
        reserveCapacity(rows)
        try rowMajor.withUnsafeBufferPointer { (all) throws(IndexError) in
            for row in 0..<rows {
                try add(UnsafeBufferPointer(rebasing: all[(row * dimension)..<((row + 1) * dimension)]))
            }
        }
    }

    /// Restores an index from prepared storage; used by ``IndexFile`` after validating a file.
    init(dimension: Int, metric: DistanceMetric, preparedVectors: [Float], ids: [Int]) throws(IndexError) {
        try self.init(dimension: dimension, metric: metric)
        guard preparedVectors.count == ids.count * dimension else {
            throw .dimensionMismatch(expected: ids.count * dimension, actual: preparedVectors.count)
        }
        var positions: [Int: Int] = [:]
        positions.reserveCapacity(ids.count)
        for (position, id) in ids.enumerated() {
            guard positions.updateValue(position, forKey: id) == nil else { throw .duplicateID(id) }
        }
        vectors = preparedVectors
        self.ids = ids
        positionByID = positions
    }

    /// The number of stored vectors.
    public var count: Int { ids.count }

    /// Reserves room for `additional` more vectors.
    public mutating func reserveCapacity(_ additional: Int) {
        vectors.reserveCapacity(vectors.count + additional * dimension)
        ids.reserveCapacity(ids.count + additional)
        positionByID.reserveCapacity(ids.count + additional)
    }

    /// Adds a vector and returns its id: `id` when given, otherwise its insertion position.
    /// - Throws: ``IndexError`` when the vector has the wrong length or a non-finite component, or the id
    ///   is already taken.
    @discardableResult
    public mutating func add(_ vector: [Float], id: Int? = nil) throws(IndexError) -> Int {
        try vector.withUnsafeBufferPointer { (buffer) throws(IndexError) -> Int in try add(buffer, id: id) }
    }

    /// Adds a vector read from `vector` and returns its id: `id` when given, otherwise its insertion position.
    /// - Throws: ``IndexError`` when the vector has the wrong length or a non-finite component, or the id
    ///   is already taken.
    @discardableResult
    public mutating func add(_ vector: UnsafeBufferPointer<Float>, id: Int? = nil) throws(IndexError) -> Int {
        let newID = id ?? ids.count
        guard positionByID[newID] == nil else { throw .duplicateID(newID) }
        guard ids.count < IndexLimits.maximumCount else { throw .tooManyVectors(ids.count + 1) }
        try VectorPreparation.append(vector, dimension: dimension, metric: metric, to: &vectors)
        positionByID[newID] = ids.count
        ids.append(newID)
        return newID
    }

    /// Removes the vector with `id`; the last vector takes its position.
    /// - Throws: ``IndexError/unknownID(_:)`` when no vector has that id.
    public mutating func remove(id: Int) throws(IndexError) {
        guard let position = positionByID.removeValue(forKey: id) else { throw .unknownID(id) }
        let last = ids.count - 1
        if position != last {
            let movedID = ids[last]
            ids[position] = movedID
            positionByID[movedID] = position
            for c in 0..<dimension {
                vectors[position * dimension + c] = vectors[last * dimension + c]
            }
        }
        ids.removeLast()
        vectors.removeLast(dimension)
    }

    /// The stored (prepared) vector with `id`, or `nil` when there is none.
    public func vector(id: Int) -> [Float]? {
        guard let position = positionByID[id] else { return nil }
        return Array(vectors[(position * dimension)..<((position + 1) * dimension)])
    }

    /// Whether a vector with `id` is stored.
    public func contains(id: Int) -> Bool { positionByID[id] != nil }

    /// The `k` stored vectors nearest to `query`, nearest first, ties by ascending id.
    ///
    /// - Throws: ``IndexError`` when `query` has the wrong dimension or a non-finite component, or `k < 0`.
    /// - Complexity: O(`count × dimension + count × log k`).
    public func search(_ query: UnsafeBufferPointer<Float>, k: Int) throws(IndexError) -> [Neighbor] {
        var top = try TopK(k: k)
        try search(query, into: &top)
        return top.drainSorted()
    }

    /// Offers every stored vector to `top`, so that several scans can share one selection.
    ///
    /// - Throws: ``IndexError`` when `query` has the wrong dimension or a non-finite component.
    public func search(_ query: UnsafeBufferPointer<Float>, into top: inout TopK) throws(IndexError) {
        guard top.k > 0, !ids.isEmpty else {
            try VectorPreparation.validate(query, dimension: dimension)
            return
        }
        let dimension = self.dimension
        let metric = self.metric
        try VectorPreparation.withPreparedQuery(query, dimension: dimension, metric: metric) { q in
            vectors.withUnsafeBufferPointer { stored in
                ids.withUnsafeBufferPointer { idList in
                    // safe because stored.count == idList.count × dimension (maintained by add/remove).
                    guard let base = stored.baseAddress else { return }
                    var row = base
                    for position in 0..<idList.count {
                        let distance = DistanceKernel.distance(metric, row, q, count: dimension)
                        if distance <= top.threshold {
                            top.offer(id: idList[position], distance: distance)
                        }
                        row += dimension
                    }
                }
            }
        }
    }
}
