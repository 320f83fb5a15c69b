/// A node of a parsed regular expression, with where it starts in the pattern.
///
/// Produced by ``RegexParser``; compiled by ``RegexProgram`` and checked by
/// ``RegexHazard``. A value type with no shared state.
package struct RegexNode: Sendable, Hashable {
    /// What the node matches.
    package indirect enum Kind: Sendable, Hashable {
        /// The empty string, e.g. an empty alternative in `a|`.
        case empty
        /// One Unicode scalar.
        case literal(Unicode.Scalar)
        /// One scalar from a set: `.`, `\d`, `[a-z]` and the like.
        case set(RegexCharacterSet)
        /// `^`: the start of the input.
        case start
        /// `$`: the end of the input, or before a line terminator that ends it.
        case end
        /// The parts one after the other.
        case concatenation([RegexNode])
        /// Any one of the alternatives.
        case alternation([RegexNode])
        /// The body between `min` and `max` times (`max` `nil`: unbounded).
        case repetition(RegexNode, min: Int, max: Int?)
    }

    /// What the node matches.
    package var kind: Kind
    /// Where the node is written in the pattern, in Unicode scalars from 0; a
    /// repetition's range covers its body and quantifier (all of `(a+)+`).
    package var range: Range<Int>

    /// Where the node starts in the pattern.
    package var offset: Int { range.lowerBound }

    /// Creates a node.
    package init(_ kind: Kind, range: Range<Int>) {
        self.kind = kind
        self.range = range
    }
}
