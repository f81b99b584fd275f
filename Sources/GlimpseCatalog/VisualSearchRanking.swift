/// The pure ranking step of visual search: evidence + snapshot → the full ordered result list.
enum VisualSearchRanking {
    static func rank(_ evidence: VisualSearchEvidence, in snapshot: CatalogSnapshot) -> [VisualSearchItem] {
        let catalog = snapshot.catalog
        let scale = VisualSearchEvidence.scale
        // Each label counts with its confidence times its informativeness in this catalog.
        let labels: [(label: String, weight: Double)] = evidence.labels.compactMap { entry in
            guard catalog.labels.indices.contains(entry.offset) else { return nil }
            let label = catalog.labels[entry.offset]
            return (label, Double(entry.weight) / scale * (snapshot.labelInformativeness[label] ?? 0))
        }
        let totalWeight = labels.reduce(0) { $0 + $1.weight }

        // Best accepted match per place.
        var best: [Int: VisualSearchEvidence.Match] = [:]
        for match in evidence.matches where match.accepted && catalog.places.indices.contains(match.placeOffset) {
            if let current = best[match.placeOffset], current.score >= match.score { continue }
            best[match.placeOffset] = match
        }

        var places: [(item: VisualSearchItem, offset: Int)] = best.map { offset, match in
            let place = catalog.places[offset]
            let carried = Set(place.labels)
            let voting = labels.filter { carried.contains($0.label) }
            let fit = totalWeight > 0 ? voting.reduce(0) { $0 + $1.weight } / totalWeight : 0
            let reason = VisualSearchReason(
                matchedPlaceID: place.id, matchScore: Double(match.score) / scale, inliers: match.inliers,
                votingLabels: voting.map(\.label), labelFit: round(fit), region: match.region?.imageRegion)
            return (VisualSearchItem(result: .place(place), score: Double(match.score) / scale, reason: reason), offset)
        }
        places.sort { a, b in a.item.score != b.item.score ? a.item.score > b.item.score : a.offset < b.offset }

        var collections: [(item: VisualSearchItem, offset: Int, member: Int?)] = []
        for (offset, collection) in catalog.collections.enumerated() {
            let profile = snapshot.labelProfiles[offset]
            let voting = labels.filter { (profile[$0.label] ?? 0) > 0 }
            let fit = totalWeight > 0 ? labels.reduce(0) { $0 + $1.weight * (profile[$1.label] ?? 0) } / totalWeight : 0
            let member = collection.places.compactMap { id -> (id: String, match: VisualSearchEvidence.Match)? in
                guard let placeOffset = catalog.placeOffset(id: id), let match = best[placeOffset] else { return nil }
                return (id, match)
            }.max { a, b in a.match.score != b.match.score ? a.match.score < b.match.score : a.id > b.id }
            let containment = member.map { Double($0.match.score) / scale } ?? 0
            guard member != nil || (fit > 0 && fit * scale >= Double(evidence.minimumLabelFit)) else { continue }
            let score = 1 - (1 - containment) * (1 - fit)
            let reason = VisualSearchReason(
                matchedPlaceID: member?.id, matchScore: member.map { Double($0.match.score) / scale },
                inliers: member?.match.inliers, votingLabels: voting.map(\.label), labelFit: round(fit),
                region: member?.match.region?.imageRegion)
            collections.append((VisualSearchItem(result: .collection(collection), score: round(score), reason: reason),
                                offset, member?.match.placeOffset))
        }
        collections.sort { a, b in
            if (a.member != nil) != (b.member != nil) { return a.member != nil }
            if a.item.score != b.item.score { return a.item.score > b.item.score }
            return a.offset < b.offset
        }
        // Each place, then the collections whose best matched member it is; then label-only collections.
        var ranked: [VisualSearchItem] = []
        ranked.reserveCapacity(places.count + collections.count)
        for place in places {
            ranked.append(place.item)
            ranked += collections.filter { $0.member == place.offset }.map(\.item)
        }
        ranked += collections.filter { $0.member == nil }.map(\.item)
        return ranked
    }

    /// Rounds to 4 decimals, the precision scores are reported with.
    static func round(_ value: Double) -> Double {
        (value * VisualSearchEvidence.scale).rounded() / VisualSearchEvidence.scale
    }
}
