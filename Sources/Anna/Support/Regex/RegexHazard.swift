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
    /// Where the repeated part starts in the pattern, in Unicode scalars from 0.
    package var offset: Int

    /// What is wrong and what to do, to follow "'pattern' of … ".
    package var description: String {
        switch kind {
        case .nestedQuantifiers:
            "nests quantifiers: the part repeated here is itself repeated inside, so a backtracking matcher can take exponential time (like (a+)+); repeat it once, e.g. a+ instead of (a+)+"
        case .overlappingAlternatives:
            "repeats alternatives that can match the same text, so a backtracking matcher can take exponential time (like (a|a)* or (\\w|\\d)+); make them exclusive, e.g. \\w+ instead of (\\w|\\d)+"
        case .tooComplex:
            "has too many parts to check for forms that are slow to match; simplify it"
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
