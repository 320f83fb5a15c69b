/// The one definition of what breaks a constraint, shared by the runtime's
/// constraint checker and `anna inspect`, in the words both report.
extension ParameterConstraint {
    /// The first numeric limit `number` breaks, in words (`at least 0`); `nil` when none.
    package func problem(withNumber number: Double) -> String? {
        if let min, number < min { return "at least \(min.compactDescription)" }
        if let max, number > max { return "at most \(max.compactDescription)" }
        return nil
    }

    /// The first length or allowed-value limit `text` breaks, in words; `nil` when
    /// none. The pattern is checked apart, with a compiled ``RegexProgram``
    /// (``RegexProgram/problem(with:pattern:)``).
    /// - Parameter checksAllowedValues: `false` where the caller checks an enum itself.
    package func problem(withText text: String, checksAllowedValues: Bool = true) -> String? {
        if let minLength, text.count < minLength { return "at least \(minLength) characters long" }
        if let maxLength, text.utf8.count > maxLength, text.count > maxLength {
            return "at most \(maxLength) characters long"
        }
        if checksAllowedValues, let allowed = allowedValues, !allowed.contains(text) {
            return "one of \(allowed.map { "'\($0)'" }.joined(separator: ", "))"
        }
        return nil
    }
}

extension RegexProgram {
    /// What is wrong with `text` for this program compiled from `pattern`, in words
    /// (`matching /^[a-z]+$/`); `nil` when it matches. A string longer than
    /// ``maximumInputLength`` is not matched and counts as a violation.
    package func problem(with text: String, pattern: String) -> String? {
        let limit = maximumInputLength
        if text.utf8.count > limit, text.unicodeScalars.count > limit {
            return "at most \(limit) characters long to be matched against /\(pattern)/"
        }
        return matches(text) ? nil : "matching /\(pattern)/"
    }
}
