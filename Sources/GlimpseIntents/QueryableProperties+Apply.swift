extension QueryableProperties {
    /// Filters, sorts and limits `entities` in memory.
    ///
    /// - No comparisons select every entity, whatever the mode.
    /// - The sort is stable: entities equal on every key keep their input order. Nil values sort last
    ///   in both directions.
    /// - A `limit` of 0 returns nothing; `nil` returns everything.
    /// - Throws: ``EntityQueryError`` before looking at any entity, when a comparison or sort does not
    ///   fit the declared properties or the limit is negative.
    public func apply(
        to entities: [Entity], matching comparisons: [EntityQueryComparison], mode: EntityQueryComparatorMode,
        sortedBy sorts: [PropertySort], limit: Int?
    ) throws(EntityQueryError) -> [Entity] {
        if let limit, limit < 0 { throw .invalidLimit(limit) }
        var checks: [(QueryableProperty<Entity>, PropertyComparator)] = []
        for comparison in comparisons {
            checks.append((try validate(comparison), comparison.comparator))
        }
        var keys: [(QueryableProperty<Entity>, PropertySort.Ordering)] = []
        for sort in sorts {
            guard let property = self[sort.by], property.isSortable else {
                throw .unsortableProperty(name: sort.by, sortable: sortingOptions)
            }
            keys.append((property, sort.order))
        }

        let selected = checks.isEmpty ? entities : entities.filter { entity in
            switch mode {
            case .and: checks.allSatisfy { $0.1.evaluate($0.0.value(of: entity)) }
            case .or: checks.contains { $0.1.evaluate($0.0.value(of: entity)) }
            }
        }
        var rows = selected.enumerated().map { offset, entity in
            (offset: offset, entity: entity, values: keys.map { $0.0.value(of: entity) })
        }
        if !keys.isEmpty {
            rows.sort { a, b in
                for (index, key) in keys.enumerated() {
                    switch Self.order(a.values[index], b.values[index], key.1) {
                    case .less: return true
                    case .greater: return false
                    case .equal, nil: continue
                    }
                }
                return a.offset < b.offset
            }
        }
        let limited = limit.map { rows.prefix($0) } ?? rows[...]
        return limited.map(\.entity)
    }

    /// Orders two values for one sort key: nil last in either direction.
    private static func order(
        _ a: EntityPropertyValue, _ b: EntityPropertyValue, _ ordering: PropertySort.Ordering
    ) -> PropertyOrdering.Outcome? {
        switch (a == .null, b == .null) {
        case (true, true): return .equal
        case (true, false): return .greater
        case (false, true): return .less
        case (false, false):
            let outcome = PropertyOrdering.compare(a, b)
            guard ordering == .descending else { return outcome }
            switch outcome {
            case .less: return .greater
            case .greater: return .less
            default: return outcome
            }
        }
    }
}
