/// The rules of a ``ProviderProfile``, written once: the generator reports each
/// broken rule at the spec's line and column, and the runtime enforces the same
/// rules on events built by hand.
extension ProviderProfile {
    /// What a name is the name of.
    package enum NameKind: String, Sendable {
        case event
        case parameter
    }

    /// A rule a mapped name breaks.
    package enum NameRule: Sendable, Hashable {
        /// Longer than the profile allows, in characters.
        case tooLong(limit: Int)
        /// Not letters, digits and underscores starting with a letter.
        case notIdentifier
        /// Starts with a prefix the provider keeps for itself.
        case reservedPrefix(String)
        /// An event name the provider keeps for its own events.
        case reservedEventName

        /// The limit in words, as run-time violations report it.
        package func limit(for kind: NameKind) -> String {
            switch self {
            case .tooLong(let limit): "\(kind.rawValue) names of at most \(limit) characters"
            case .notIdentifier: "\(kind.rawValue) names of letters, digits and underscores, starting with a letter"
            case .reservedPrefix(let prefix): "the prefix '\(prefix)' is reserved"
            case .reservedEventName: "the name is reserved"
            }
        }
    }

    /// Every rule a name breaks once mapped, in the order the generator reports them.
    /// - Parameters:
    ///   - mappedName: The name after ``mapped(_:)``.
    ///   - kind: Whether it names an event or a parameter.
    package func brokenRules(ofMapped mappedName: String, kind: NameKind) -> [NameRule] {
        var rules: [NameRule] = []
        let limit = kind == .event ? maximumEventNameLength : maximumParameterNameLength
        // utf8.count is an upper bound of count, and much cheaper.
        if let limit, mappedName.utf8.count > limit, mappedName.count > limit {
            rules.append(.tooLong(limit: limit))
        }
        if requiresIdentifierNames && !Self.isIdentifier(mappedName) {
            rules.append(.notIdentifier)
        }
        for prefix in reservedPrefixes where mappedName.hasPrefix(prefix) {
            rules.append(.reservedPrefix(prefix))
        }
        if kind == .event && reservedEventNames.contains(mappedName) {
            rules.append(.reservedEventName)
        }
        return rules
    }

    /// A string's length as the provider counts it: UTF-8 bytes where ``countsBytes``,
    /// else characters.
    package func length(of text: String) -> Int {
        countsBytes ? text.utf8.count : text.count
    }

    /// `bytes` or `characters`, the unit of ``maximumStringLength``.
    package var stringLengthUnit: String {
        countsBytes ? "bytes" : "characters"
    }

    /// ASCII letters, digits and underscores, starting with a letter.
    package static func isIdentifier(_ name: String) -> Bool {
        var bytes = name.utf8.makeIterator()
        guard let first = bytes.next(), (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A else { return false }
        while let byte = bytes.next() {
            let letter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
            guard letter || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F else { return false }
        }
        return true
    }
}
