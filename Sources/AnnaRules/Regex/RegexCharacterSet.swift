/// A set of Unicode scalars: ranges and the classes `\d`, `\w`, `\s`, possibly negated.
///
/// The classes follow ICU, which `NSRegularExpression` uses, so a pattern means
/// the same to Anna as it did before: `\d` is a decimal digit in any script, `\w`
/// a letter, mark, digit or connector punctuation, `\s` a scalar with Unicode's
/// White_Space property. An immutable value.
package struct RegexCharacterSet: Sendable, Hashable {
    /// A class named by an escape.
    package enum Class: Sendable, Hashable {
        /// `\d`.
        case digit
        /// `\w`.
        case word
        /// `\s`.
        case space
        /// What `.` excludes: the line terminators.
        case lineTerminator
    }

    /// A class, or its complement (`\D`).
    package struct ClassItem: Sendable, Hashable {
        /// The class.
        package var `class`: Class
        /// The item is everything outside the class (`\D`, `\W`, `\S`).
        package var isNegated: Bool
    }

    /// Scalar ranges in the set.
    package var ranges: [ClosedRange<UInt32>] = []
    /// Classes in the set.
    package var classes: [ClassItem] = []
    /// The set is everything but the ranges and classes (`[^…]`).
    package var isNegated = false

    /// Creates an empty set.
    package init() {}

    /// `.`: anything but a line terminator.
    package static let dot: RegexCharacterSet = {
        var set = RegexCharacterSet()
        set.classes = [ClassItem(class: .lineTerminator, isNegated: true)]
        return set
    }()

    /// A set holding one class.
    package init(_ class: Class, negated: Bool) {
        classes = [ClassItem(class: `class`, isNegated: negated)]
    }

    /// Whether the set holds `scalar`.
    package func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        var found = false
        for range in ranges where range.contains(value) {
            found = true
            break
        }
        if !found {
            for item in classes where Self.classContains(item.class, scalar) != item.isNegated {
                found = true
                break
            }
        }
        return found != isNegated
    }

    /// Whether some scalar is in both sets.
    ///
    /// Exact for ranges; for classes it tries ASCII, every range's bounds and
    /// their neighbours, and one scalar of each kind the classes tell apart
    /// beyond ASCII, so it can miss an overlap only between ranges outside ASCII
    /// and a class at scalars that none of those represent.
    package func intersects(_ other: RegexCharacterSet) -> Bool {
        var candidates = Self.representatives
        for range in ranges + other.ranges {
            for value in [range.lowerBound, range.upperBound, range.lowerBound &- 1, range.upperBound &+ 1] {
                if let scalar = Unicode.Scalar(value) { candidates.append(scalar) }
            }
        }
        return candidates.contains { contains($0) && other.contains($0) }
    }

    /// ASCII and non-ASCII letters, marks, digits, separators and terminators.
    private static let representatives: [Unicode.Scalar] = {
        var scalars = (0..<128).compactMap { Unicode.Scalar(UInt32($0)) }
        for value: UInt32 in [0x85, 0xA0, 0xE9, 0x300, 0x660, 0x2028, 0x2029, 0x200C, 0x203F, 0x3000, 0x4E00, 0x1F600, 0x10FFFF] {
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return scalars
    }()

    static func classContains(_ class: Class, _ scalar: Unicode.Scalar) -> Bool {
        switch `class` {
        case .digit:
            if scalar.isASCII { return scalar.value >= 0x30 && scalar.value <= 0x39 }
            return scalar.properties.generalCategory == .decimalNumber
        case .word:
            if scalar.isASCII {
                let value = scalar.value
                return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
                    || (value >= 0x61 && value <= 0x7A) || value == 0x5F
            }
            if scalar.value == 0x200C || scalar.value == 0x200D { return true }
            let properties = scalar.properties
            if properties.isAlphabetic { return true }
            switch properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
            default: return false
            }
        case .space:
            if scalar.isASCII { return scalar.value == 0x20 || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
            return scalar.properties.isWhitespace
        case .lineTerminator:
            return isLineTerminator(scalar)
        }
    }

    /// `\n`, vertical tab, form feed, `\r`, next line, line and paragraph separators.
    static func isLineTerminator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }
}
