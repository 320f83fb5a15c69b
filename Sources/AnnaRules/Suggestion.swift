/// "Did you mean" suggestions by edit distance.
package enum Suggestion {
    /// The closest candidate within a third of the word's length, if any.
    package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        // One- and two-letter words are too short for a guess to mean anything.
        guard word.count > 2 else { return nil }
        let limit = max(1, word.count / 3)
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= limit, distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        return best?.0
    }

    package static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs.unicodeScalars), b = Array(rhs.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Long names cannot be near each other and would only cost time.
        if abs(a.count - b.count) > 8 || a.count > 200 || b.count > 200 { return .max / 2 }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// `; did you mean 'x'?` or `; expected one of: a, b, c`.
    package static func hint(for word: String, in candidates: [String]) -> String {
        if let match = closest(to: word, in: candidates) { return "; did you mean '\(match)'?" }
        if candidates.isEmpty { return "" }
        return "; expected one of: \(candidates.joined(separator: ", "))"
    }
}
