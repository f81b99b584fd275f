/// The pure ranking step of visual search: evidence + snapshot → the full ordered result list.
///
/// Over the line (score ≥ 0.5) are only the places the matcher accepted and the collections holding
/// one of them. Everything else is a suggestion scored below the line and ranked after every accepted
/// result: places the matcher ranked but did not accept, and collections that only hold such a place
/// or only fit the labels. Results under ``VisualSearchEvidence/minimumScore`` are left out.
enum VisualSearchRanking {
    static func rank(_ evidence: VisualSearchEvidence, in snapshot: CatalogSnapshot) -> [VisualSearchItem] {
        let catalog = snapshot.catalog
        let scale = VisualSearchEvidence.scale
        let below = Double(VisualSearchEvidence.belowLine) / scale
        // Each label counts with its confidence times its informativeness in this catalog.
        let labels: [(label: String, weight: Double)] = evidence.labels.compactMap { entry in
            guard catalog.labels.indices.contains(entry.offset) else { return nil }
            let label = catalog.labels[entry.offset]
            return (label, Double(entry.weight) / scale * (snapshot.labelInformativeness[label] ?? 0))
        }
        let totalWeight = labels.reduce(0) { $0 + $1.weight }

        // Best match per place: an accepted one before any other, then the higher score.
        var best: [Int: VisualSearchEvidence.Match] = [:]
        for match in evidence.matches where catalog.places.indices.contains(match.placeOffset) {
            if let current = best[match.placeOffset],
               (current.accepted ? 1 : 0, current.score) >= (match.accepted ? 1 : 0, match.score) { continue }
            best[match.placeOffset] = match
        }
        /// The score a match gives its place: the matcher's when accepted, else at most just below the line.
        func placeScore(_ match: VisualSearchEvidence.Match) -> Double {
            let score = Double(match.score) / scale
            return match.accepted ? score : min(score, below)
        }

        var places: [(item: VisualSearchItem, offset: Int, accepted: Bool)] = best.map { offset, match in
            let place = catalog.places[offset]
            let carried = Set(place.labels)
            let voting = labels.filter { carried.contains($0.label) }
            let fit = totalWeight > 0 ? voting.reduce(0) { $0 + $1.weight } / totalWeight : 0
            let score = placeScore(match)
            let reason = VisualSearchReason(
                matchedPlaceID: place.id, matchScore: score, inliers: match.inliers,
                votingLabels: voting.map(\.label), labelFit: round(fit), region: match.region?.imageRegion,
                accepted: match.accepted, printSimilarity: match.similarity.map { Double($0) / scale },
                printMargin: match.margin.map { Double($0) / scale },
                heldBackBy: match.heldBackBy.flatMap { catalog.places.indices.contains($0) ? catalog.places[$0].id : nil })
            return (VisualSearchItem(result: .place(place), score: score, reason: reason), offset, match.accepted)
        }
        places.sort { a, b in a.item.score != b.item.score ? a.item.score > b.item.score : a.offset < b.offset }

        var collections: [(item: VisualSearchItem, offset: Int, member: Int?)] = []
        for (offset, collection) in catalog.collections.enumerated() {
            let profile = snapshot.labelProfiles[offset]
            let voting = labels.filter { (profile[$0.label] ?? 0) > 0 }
            let fit = totalWeight > 0 ? labels.reduce(0) { $0 + $1.weight * (profile[$1.label] ?? 0) } / totalWeight : 0
            // Its best member among the places the matcher ranked, accepted ones first.
            let member = collection.places.compactMap { id -> (id: String, match: VisualSearchEvidence.Match)? in
                guard let placeOffset = catalog.placeOffset(id: id), let match = best[placeOffset] else { return nil }
                return (id, match)
            }.max { a, b in
                (a.match.accepted ? 1 : 0, a.match.score, b.id) < (b.match.accepted ? 1 : 0, b.match.score, a.id)
            }
            let accepted = member?.match.accepted == true
            let memberScore = member.map { placeScore($0.match) } ?? 0
            guard member != nil || (fit > 0 && fit * scale >= Double(evidence.minimumLabelFit)) else { continue }
            // Over the line through an accepted member: 1 − (1 − m)(1 − f). A suggestion (a member the
            // matcher did not accept, or labels alone): the same combination of twice the member's score
            // (below 1) and the fit, scaled below the line.
            let score = accepted
                ? 1 - (1 - memberScore) * (1 - fit)
                : below * (1 - (1 - min(1, 2 * memberScore)) * (1 - fit))
            let reason = VisualSearchReason(
                matchedPlaceID: member?.id, matchScore: member.map { placeScore($0.match) },
                inliers: member?.match.inliers, votingLabels: voting.map(\.label), labelFit: round(fit),
                region: accepted ? member?.match.region?.imageRegion : nil, accepted: accepted,
                printSimilarity: member?.match.similarity.map { Double($0) / scale },
                printMargin: member?.match.margin.map { Double($0) / scale })
            collections.append((VisualSearchItem(result: .collection(collection), score: round(score), reason: reason),
                                offset, accepted ? member?.match.placeOffset : nil))
        }
        collections.sort { a, b in
            if (a.member != nil) != (b.member != nil) { return a.member != nil }
            if a.item.score != b.item.score { return a.item.score > b.item.score }
            return a.offset < b.offset
        }
        // Each accepted place, then the collections whose best accepted member it is; then the
        // suggestions, places and collections together, by score (places first on a tie).
        var ranked: [VisualSearchItem] = []
        ranked.reserveCapacity(places.count + collections.count)
        for place in places where place.accepted {
            ranked.append(place.item)
            ranked += collections.filter { $0.member == place.offset }.map(\.item)
        }
        var suggestions: [(item: VisualSearchItem, kind: Int, offset: Int)] = []
        for place in places where !place.accepted { suggestions.append((place.item, 0, place.offset)) }
        for collection in collections where collection.member == nil {
            suggestions.append((collection.item, 1, collection.offset))
        }
        suggestions.sort { a, b in
            if a.item.score != b.item.score { return a.item.score > b.item.score }
            if a.kind != b.kind { return a.kind < b.kind }
            return a.offset < b.offset
        }
        ranked += suggestions.map { $0.item }
        let least = Double(evidence.minimumScore) / scale
        return ranked.filter { $0.score >= least }
    }

    /// Rounds to 4 decimals, the precision scores are reported with.
    static func round(_ value: Double) -> Double {
        (value * VisualSearchEvidence.scale).rounded() / VisualSearchEvidence.scale
    }
}
