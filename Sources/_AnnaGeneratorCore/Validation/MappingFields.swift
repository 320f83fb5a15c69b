/// The entries of a mapping whose keys were checked against the allowed ones, looked
/// up by key.
///
/// A spec's mappings have a handful of keys each, so a scan of the entries finds one
/// faster than hashing the key would, and reading a mapping whose keys are all
/// allowed, as most are, keeps its entries without copying them.
struct MappingFields {
    /// The allowed entries, in file order; keys are unique (the parser rejects
    /// duplicates).
    private let pairs: [YAMLPair]

    init(_ pairs: [YAMLPair]) {
        self.pairs = pairs
    }

    /// The entry with this key, if the mapping has one.
    subscript(key: String) -> YAMLPair? {
        for index in pairs.indices where pairs[index].key == key {
            return pairs[index]
        }
        return nil
    }

    /// Where each key is written.
    var keyLocations: [String: SourceLocation] {
        Dictionary(uniqueKeysWithValues: pairs.lazy.map { ($0.key, $0.keyLocation) })
    }
}
