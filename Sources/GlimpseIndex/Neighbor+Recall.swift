extension Neighbor {
    /// Recall@k of approximate answers against exact ones: the share of the true neighbours that were
    /// found, pooled over all queries (`found[i]` and `truth[i]` answer query `i`; unpaired trailing
    /// answers are ignored). With `k` true neighbours per query this is the mean of each query's recall.
    ///
    /// The rule for an empty truth set (no query, `k = 0`, or an empty index): the recall is 1, since
    /// no true neighbour was missed. Neighbours are matched by ``id``; a repeated id in `truth` counts once.
    public static func recall(of found: [[Neighbor]], against truth: [[Neighbor]]) -> Double {
        var hits = 0
        var total = 0
        for (answer, expected) in zip(found, truth) {
            let wanted = Set(expected.map(\.id))
            hits += Set(answer.map(\.id)).intersection(wanted).count
            total += wanted.count
        }
        return total == 0 ? 1 : Double(hits) / Double(total)
    }
}
