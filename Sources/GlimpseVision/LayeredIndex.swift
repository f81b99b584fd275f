/// A map from a matcher's keys (or place ids) to numbers that a new version of the matcher changes without
/// copying it: a base, built with the matcher and shared by every version updated from it, and the few
/// entries changed since.
///
/// At 10⁶ references a plain dictionary would be copied whole by each edit (its storage is shared with the
/// version queries still run on), which alone costs 100–200 ms; here an edit copies only the changes since
/// the matcher was built or compacted, and compaction starts a new base.
struct LayeredIndex: Sendable {
    /// The entries as built (never mutated, so every copy shares its storage).
    private let base: [String: Int]
    /// Entries set since the base was built; they take precedence over it.
    private var changed: [String: Int] = [:]
    /// Base keys removed since (and not set again).
    private var removed: Set<String> = []

    /// The number of keys.
    private(set) var count: Int

    /// A map whose base is `base`.
    init(_ base: [String: Int] = [:]) {
        self.base = base
        count = base.count
    }

    /// The number of `key`, or `nil`; setting `nil` removes it.
    subscript(key: String) -> Int? {
        get {
            if let value = changed[key] { return value }
            return removed.contains(key) ? nil : base[key]
        }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    /// Sets `key` to `value`; returns the number it had.
    @discardableResult
    mutating func updateValue(_ value: Int, forKey key: String) -> Int? {
        let old = self[key]
        if old == nil { count += 1 }
        changed[key] = value
        return old
    }

    /// Removes `key`; returns the number it had.
    @discardableResult
    mutating func removeValue(forKey key: String) -> Int? {
        guard let old = self[key] else { return nil }
        count -= 1
        changed[key] = nil
        if base[key] != nil { removed.insert(key) }
        return old
    }

    /// Every key, in no particular order.
    var keys: [String] {
        var out: [String] = []
        out.reserveCapacity(count)
        for key in base.keys where changed[key] == nil && !removed.contains(key) { out.append(key) }
        out.append(contentsOf: changed.keys)
        return out
    }
}

/// A matcher's place ids by group number, which a new version of the matcher extends without copying: the
/// ids as built, shared by every version updated from it, then those added since.
struct LayeredNames: RandomAccessCollection, Sendable {
    /// The ids as built (never mutated).
    private let base: [String]
    /// The ids appended since.
    private var tail: [String] = []

    /// Names whose first ones are `base`.
    init(_ base: [String] = []) {
        self.base = base
    }

    var startIndex: Int { 0 }
    var endIndex: Int { base.count + tail.count }

    subscript(position: Int) -> String {
        position < base.count ? base[position] : tail[position - base.count]
    }

    /// Adds `name` as the next group's.
    mutating func append(_ name: String) {
        tail.append(name)
    }
}
