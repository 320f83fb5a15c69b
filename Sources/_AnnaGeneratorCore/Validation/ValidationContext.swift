import AnnaRules
/// State shared by the validation passes: where diagnostics go, and typed readers
/// for YAML nodes that report mismatches at the node.
struct ValidationContext {
    var diagnostics = DiagnosticCollector()

    mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.error(message, at: location)
    }

    mutating func warning(_ message: String, at location: SourceLocation) {
        diagnostics.warning(message, at: location)
    }

    /// The entries of a mapping whose keys are all in `allowed`; unknown keys are reported.
    mutating func entries(
        of node: YAMLNode, allowed: [String], in context: @autoclosure () -> String
    ) -> MappingFields? {
        guard case .mapping(let pairs) = node.content else {
            error("\(context()) must be a mapping with the keys \(allowed.joined(separator: ", ")), not \(node.kindDescription)", at: node.location)
            return nil
        }
        guard pairs.contains(where: { !allowed.contains($0.key) }) else { return MappingFields(pairs) }
        var known: [YAMLPair] = []
        for pair in pairs {
            if allowed.contains(pair.key) {
                known.append(pair)
            } else {
                error("unknown key '\(pair.key)' in \(context())\(Suggestion.hint(for: pair.key, in: allowed))", at: pair.keyLocation)
            }
        }
        return MappingFields(known)
    }

    /// A mapping's pairs, or an error naming what was expected.
    mutating func pairs(of node: YAMLNode, expected: @autoclosure () -> String) -> [YAMLPair]? {
        switch node.content {
        case .mapping(let pairs): return pairs
        case .scalar where node.scalarValue == .null: return []
        default:
            error("\(expected()) must be a mapping, not \(node.kindDescription)", at: node.location)
            return nil
        }
    }

    /// A sequence's items, or an error naming what was expected.
    mutating func items(of node: YAMLNode, expected: @autoclosure () -> String) -> [YAMLNode]? {
        guard case .sequence(let items) = node.content else {
            error("\(expected()) must be a list, not \(node.kindDescription)", at: node.location)
            return nil
        }
        return items
    }

    /// A string scalar; a plain number or boolean is reported with a hint to quote it.
    mutating func string(_ node: YAMLNode, expected: @autoclosure () -> String) -> String? {
        if case .string(let text) = node.scalarValue { return text }
        var message = "\(expected()) must be a string, not \(node.kindDescription)"
        if case .scalar(let text, _) = node.content, !text.isEmpty { message += "; write it in quotes: \"\(text)\"" }
        error(message, at: node.location)
        return nil
    }

    /// The string value of an optional entry: `nil` when absent or not a string (reported).
    mutating func string(_ pair: YAMLPair?, expected: @autoclosure () -> String) -> String? {
        guard let pair else { return nil }
        return string(pair.value, expected: expected())
    }

    /// A boolean scalar.
    mutating func bool(_ node: YAMLNode, expected: @autoclosure () -> String) -> Bool? {
        if case .bool(let value) = node.scalarValue { return value }
        error("\(expected()) must be true or false, not \(node.kindDescription)", at: node.location)
        return nil
    }

    /// A number scalar (integer or floating point).
    mutating func number(_ node: YAMLNode, expected: @autoclosure () -> String) -> Double? {
        switch node.scalarValue {
        case .int(let value): return Double(value)
        case .double(let value) where value.isFinite: return value
        default:
            error("\(expected()) must be a finite number, not \(node.kindDescription)", at: node.location)
            return nil
        }
    }

    /// A non-negative integer scalar.
    mutating func count(_ node: YAMLNode, expected: @autoclosure () -> String) -> Int? {
        if case .int(let value) = node.scalarValue {
            if value >= 0 { return value }
            error("\(expected()) must be at least 0, not \(value)", at: node.location)
            return nil
        }
        error("\(expected()) must be a whole number of at least 0, not \(node.kindDescription)", at: node.location)
        return nil
    }
}
