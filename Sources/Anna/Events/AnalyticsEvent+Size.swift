extension AnalyticsEvent {
    /// About how many bytes the event holds in memory: a fixed cost per event and
    /// per parameter, plus the text of its name and string values. Used to bound
    /// what the service keeps in memory; an estimate, cheap enough for `report`'s
    /// thread (it reads each value once and copies nothing).
    var approximateByteCount: Int {
        var total = 160 + name.utf8.count + 64 * parameters.count
        for value in parameters.values {
            switch value {
            case .string(let text): total += text.utf8.count
            case .array(let elements): total += elements.approximateByteCount
            case .object(let fields): total += fields.approximateByteCount
            case .url, .int, .double, .bool, .date, .uuid: break
            }
        }
        return total
    }
}

extension [AnalyticsValue] {
    /// An array parameter's elements, as ``AnalyticsEvent/approximateByteCount`` counts them.
    fileprivate var approximateByteCount: Int {
        reduce(32 + 24 * count) { total, element in
            switch element {
            case .string(let text): total + text.utf8.count
            case .array(let elements): total + elements.approximateByteCount
            case .object(let fields): total + fields.approximateByteCount
            default: total
            }
        }
    }
}

extension [String: AnalyticsValue] {
    /// An object's fields, as ``AnalyticsEvent/approximateByteCount`` counts them: a
    /// dictionary's fixed cost, and per field what an event's parameter costs.
    fileprivate var approximateByteCount: Int {
        var total = 48 + 64 * count
        for (key, value) in self {
            total += key.utf8.count
            switch value {
            case .string(let text): total += text.utf8.count
            case .array(let elements): total += elements.approximateByteCount
            case .object(let fields): total += fields.approximateByteCount
            case .url, .int, .double, .bool, .date, .uuid: break
            }
        }
        return total
    }
}
