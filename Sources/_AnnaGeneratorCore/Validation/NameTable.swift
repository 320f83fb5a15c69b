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

    private var names: [String] = []
    private var owners: [Owner] = []
    private var index: [String: Int] = [:]

    /// An empty table for about `capacity` names.
    init(capacity: Int = 0) {
        names.reserveCapacity(capacity)
        owners.reserveCapacity(capacity)
    }

    /// Who took `name`, or `nil` while it is free.
    subscript(name: String) -> Owner? {
        if names.count <= Self.linearSearchLimit {
            for position in names.indices where names[position] == name {
                return owners[position]
            }
            return nil
        }
        return index[name].map { owners[$0] }
    }

    /// Records that `owner` takes `name`, which is free.
    mutating func take(_ name: String, by owner: Owner) {
        names.append(name)
        owners.append(owner)
        if names.count > Self.linearSearchLimit {
            if index.isEmpty {
                index.reserveCapacity(names.capacity)
                for (position, taken) in names.enumerated() { index[taken] = position }
            } else {
                index[name] = names.count - 1
            }
        }
    }
}
