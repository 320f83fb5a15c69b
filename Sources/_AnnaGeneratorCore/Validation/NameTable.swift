/// The names declared so far in one list (an event's parameters, an enum's cases),
/// each with the spec name and place that took it, to report a second use.
///
/// Most lists are short, and a scan of a few names is cheaper than hashing one, so a
/// table is searched in order until it holds ``linearSearchLimit`` names, and
/// through a dictionary after that.
struct NameTable {
    /// A taken name's owner: the spec name that became it, and where that is written.
    typealias Owner = (name: String, location: SourceLocation)

    /// Beyond this many names, a dictionary finds one faster than a scan.
    static let linearSearchLimit = 16

    private var entries: [(name: String, owner: Owner)] = []
    private var index: [String: Int] = [:]

    /// An empty table for about `capacity` names.
    init(capacity: Int = 0) {
        entries.reserveCapacity(capacity)
    }

    /// Who took `name`, or `nil` while it is free.
    subscript(name: String) -> Owner? {
        if entries.count <= Self.linearSearchLimit {
            for position in entries.indices where entries[position].name == name {
                return entries[position].owner
            }
            return nil
        }
        return index[name].map { entries[$0].owner }
    }

    /// Records that `owner` takes `name`, which is free.
    mutating func take(_ name: String, by owner: Owner) {
        entries.append((name, owner))
        if entries.count > Self.linearSearchLimit {
            if index.isEmpty {
                index.reserveCapacity(entries.capacity)
                for (position, entry) in entries.enumerated() { index[entry.name] = position }
            } else {
                index[name] = entries.count - 1
            }
        }
    }
}
