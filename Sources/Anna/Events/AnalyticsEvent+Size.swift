extension AnalyticsEvent {
    /// About how many bytes the event holds in memory: its name, keys and values
    /// with the overhead of their storage. Used to bound what the service keeps in
    /// memory; an estimate, cheap enough for `report`'s thread.
    var approximateByteCount: Int {
        var total = 160 + Self.stringBytes(name)
        for (key, value) in parameters {
            total += 48 + Self.stringBytes(key) + value.approximateByteCount
        }
        return total
    }

    /// A string's heap bytes: none for the up-to-15-byte strings stored inline.
    @inline(__always)
    static func stringBytes(_ string: String) -> Int {
        let count = string.utf8.count
        return count > 15 ? 32 + count : 0
    }
}

extension AnalyticsValue {
    /// About how many bytes the value holds beyond its inline storage.
    var approximateByteCount: Int {
        switch self {
        case .string(let text): AnalyticsEvent.stringBytes(text)
        case .url(let url): 64 + url.absoluteString.utf8.count
        case .array(let elements): elements.reduce(32) { $0 + 24 + $1.approximateByteCount }
        case .int, .double, .bool, .date, .uuid: 0
        }
    }
}
