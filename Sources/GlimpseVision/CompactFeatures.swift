/// The compact form of a reference photo's features, for catalogs too large to keep every reference's
/// full keypoint set: fewer keypoints, chosen the way extraction chose them.
public enum CompactFeatures {
    /// `features` with at most `limit` keypoints, as if extraction had been given that budget: each
    /// pyramid level keeps a share of `limit` in proportion to how many keypoints it has (largest
    /// remainders round), chosen by the grid spread extraction uses (`FASTDetector.spread`) over a
    /// `cells × cells` grid of the level, strongest first, as extraction spreads a reference's keypoints.
    /// Levels stay in their order, and the feature prints are kept. Features with no more than `limit`
    /// keypoints come back as they are.
    ///
    /// No extraction runs: the stored features of a photo are enough, so a large catalog reduces what
    /// it already holds.
    public static func reduced(_ features: ImageFeatures, to limit: Int, cells: Int) -> ImageFeatures {
        guard features.count > max(0, limit) else { return features }
        return features.keeping(keptIndices(features, limit: limit, cells: cells))
    }

    /// The positions in `features` of the keypoints ``reduced(_:to:cells:)`` keeps, in the order it keeps
    /// them (level by level, each level's in spread order); every position, in order, when there are no
    /// more than `limit`.
    public static func keptIndices(_ features: ImageFeatures, limit: Int, cells: Int) -> [Int] {
        let limit = max(0, limit)
        guard features.count > limit else { return Array(0..<features.count) }
        // Keypoints grouped by level, in order of first appearance (extraction writes levels in order).
        var levelOrder: [Int32] = []
        var members: [Int32: [Int]] = [:]
        for (i, keypoint) in features.keypoints.enumerated() {
            if members[keypoint.level] == nil { levelOrder.append(keypoint.level) }
            members[keypoint.level, default: []].append(i)
        }
        let counts = levelOrder.map { members[$0]?.count ?? 0 }
        let budgets = shares(of: limit, over: counts)
        var kept: [Int] = []
        kept.reserveCapacity(limit)
        for (level, budget) in zip(levelOrder, budgets) where budget > 0 {
            let indices = members[level] ?? []
            let scale = features.keypoints[indices[0]].scale
            let width = levelSize(features.width, scale), height = levelSize(features.height, scale)
            let corners = indices.map { i in
                let k = features.keypoints[i]
                return FASTDetector.Corner(x: levelCoordinate(k.x, scale), y: levelCoordinate(k.y, scale), response: k.response)
            }
            for chosen in FASTDetector.spreadIndices(corners, count: budget, width: width, height: height, cells: cells) {
                kept.append(indices[chosen])
            }
        }
        return kept
    }

    /// The positions in `features` of at most `limit` keypoints chosen as ``keptIndices(_:limit:cells:)``
    /// chooses them, but from the middle of the picture: from the keypoints inside the centred box of
    /// `central` of each side, or, when it holds fewer than `limit`, inside the smallest box grown in steps of
    /// a tenth of a side that holds that many. With `central` 1 (or more) this is ``keptIndices(_:limit:cells:)``.
    ///
    /// A camera picture of a place rarely shows the edges of its reference photo: it is framed tighter, tilted,
    /// or taken from nearer. Of the keypoints a verified match uses, nearly all lie in the middle half of
    /// each side of the reference (`Benchmarks/results/2026-12-07-central-indexed-keypoints.md`), so the few
    /// keypoints a large catalog indexes are taken there.
    public static func centralIndices(_ features: ImageFeatures, limit: Int, cells: Int, central: Double) -> [Int] {
        let limit = max(0, limit)
        guard features.count > limit, central < 1 else { return keptIndices(features, limit: limit, cells: cells) }
        let w = Double(max(1, features.width)), h = Double(max(1, features.height))
        // Each keypoint's distance from the centre as a share of the half side (0 in the middle, 1 at an edge).
        let reach = features.keypoints.map { k -> Double in
            let x = abs(Double(k.x) / w - 0.5) * 2, y = abs(Double(k.y) / h - 0.5) * 2
            let r = max(x, y)
            return r.isFinite ? r : 1
        }
        var side = max(0, central)
        var inside: [Int] = []
        while true {
            inside = reach.indices.filter { reach[$0] <= side }
            if inside.count >= limit || side >= 1 { break }
            side += 0.1
        }
        if inside.count < limit { inside = Array(reach.indices) }
        return keptIndices(features.keeping(inside), limit: limit, cells: cells).map { inside[$0] }
    }

    /// A position in the extraction image as a whole pixel of the level at `scale`; 0 for a value that
    /// is not finite (stored features are bytes from a file or a database).
    static func levelCoordinate(_ value: Float, _ scale: Float) -> Int32 {
        let level = (value / scale).rounded(.down)
        guard level.isFinite else { return 0 }
        return Int32(max(Float(Int32.min), min(Float(Int32.max - 127), level)))
    }

    /// A side of `size` pixels at a level of scale `scale`, rounded: at least 1, and 1 for a scale that is
    /// not a positive finite number (stored features are read from files and databases, so a scale can
    /// be anything), at most `Int32.max`.
    static func levelSize(_ size: Int, _ scale: Float) -> Int {
        let side = (Float(size) / scale).rounded()
        guard side.isFinite, side >= 1, scale > 0 else { return 1 }
        return Int(min(Float(Int32.max - 127), side))
    }

    /// `total` split over parts in proportion to `weights`, each part at most its weight, rounded by
    /// largest remainders (earlier parts first on ties), summing to `min(total, sum of weights)`.
    static func shares(of total: Int, over weights: [Int]) -> [Int] {
        let sum = weights.reduce(0, +)
        guard sum > total else { return weights }
        guard total > 0 else { return weights.map { _ in 0 } }
        var parts = weights.map { $0 * total / sum }
        var left = total - parts.reduce(0, +)
        let byRemainder = weights.indices.sorted { a, b in
            let ra = weights[a] * total % sum, rb = weights[b] * total % sum
            return ra != rb ? ra > rb : a < b
        }
        for i in byRemainder where left > 0 && parts[i] < weights[i] {
            parts[i] += 1
            left -= 1
        }
        return parts
    }
}
