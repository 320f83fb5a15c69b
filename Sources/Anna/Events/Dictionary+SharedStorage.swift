extension Dictionary where Key == String, Value == AnalyticsValue {
    /// Whether both are the very same non-empty storage (one dictionary value passed
    /// on), so their keys and values are identical, not just equal (`==` takes `0.0`
    /// for `-0.0` and compares strings by canonical equivalence): a check in constant
    /// time, for caches keyed by an event's parameters. The cache must keep the
    /// dictionary it compares against, so that its storage cannot be freed and reused.
    func sharesStorage(with other: Self) -> Bool {
        !isEmpty && withUnsafeBytes(of: self) { mine in withUnsafeBytes(of: other) { mine.elementsEqual($0) } }
    }
}
