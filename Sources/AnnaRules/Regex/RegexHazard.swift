/// A form of pattern that makes backtracking matchers (ICU's, behind
/// `NSRegularExpression`, and most collectors' and tools') take exponential time:
/// a repeated part that can match the same text in more than one way.
///
/// Anna's own matcher (``RegexProgram``) is linear whatever the pattern; specs are
/// still kept free of these forms so that every tool reading a spec can use it
/// safely. Found by ``find(in:)``; a value.
package struct RegexHazard: Sendable, Hashable, CustomStringConvertible {
    /// Which form was found.
    package enum Kind: Sendable, Hashable {
        /// A repetition inside a repetition can split the same text between them
        /// in many ways: `(a+)+`, `(a*)*`, `(.*a){20}`.
        case nestedQuantifiers
        /// A repetition's alternatives or parts can match the same text:
        /// `(a|a)*`, `(\w|\d)+`, `(a|aa)+`.
        case overlappingAlternatives
        /// Too many parts to check; the pattern should be simpler anyway.
        case tooComplex
    }

    /// Which form was found.
    package var kind: Kind
    /// Where the repetition is written in the pattern, in Unicode scalars from 0.
    package var range: Range<Int>

    /// Where the repetition starts in the pattern.
    package var offset: Int { range.lowerBound }

    /// What is wrong and what to do, to follow "'pattern' of … ".
    package var description: String { message(in: nil) }

    /// What is wrong and what to do, quoting the repetition from `pattern`.
    /// - Parameter pattern: The pattern the hazard was found in, or `nil`.
    /// - Returns: A message to follow "'pattern' of … ".
    package func message(in pattern: String?) -> String {
        var quoted: String?
        if let pattern {
            let scalars = Array(pattern.unicodeScalars)
            if range.upperBound <= scalars.count, !range.isEmpty {
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars[range])
                quoted = "'\(String(text))'"
            }
        }
        switch kind {
        case .nestedQuantifiers:
            return "nests quantifiers in \(quoted ?? "a repetition (like (a+)+)"), so text splits between the inner and outer repetition in exponentially many ways and stalls backtracking matchers; repeat once, e.g. a+ instead of (a+)+"
        case .overlappingAlternatives:
            return "repeats \(quoted ?? "a part (like (a|a)* or (\\w|\\d)+)") whose alternatives can match the same text, so text splits between the repetitions in exponentially many ways and stalls backtracking matchers; make the alternatives exclusive, e.g. \\w+ instead of (\\w|\\d)+"
        case .tooComplex:
            return "has too many parts to check for forms that stall backtracking matchers; simplify it"
        }
    }

    /// Finds the first exponential form in a pattern.
    ///
    /// The check builds the pattern's position automaton (Glushkov's, with one edge
    /// per way a position can follow another) and looks for exponential ambiguity:
    /// a state with two different paths back to itself spelling the same text, found
    /// as a cycle through the diagonal of the automaton's product with itself.
    /// Counted repetitions with an upper count above 1 are checked as unbounded ones
    /// (`(a|a){30}` is as slow as `(a|a)*` for any input that matters).
    /// - Parameter node: The parsed pattern.
    /// - Returns: The form found, or `nil` if the pattern is free of them.
    package static func find(in node: RegexNode) -> RegexHazard? {
        var automaton = PositionAutomaton()
        let root = automaton.build(node)
        for position in root.first { automaton.addEdge(from: 0, to: position, loop: nil) }
        return automaton.exponentialAmbiguity()
    }
}
