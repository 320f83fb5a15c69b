/// Turns spec names into Swift identifiers and checks that they are usable.
///
/// Names may use spaces, `_`, `-` and `.` as separators (`Order Completed`,
/// `order_completed`), which conversion removes: `lowerCamelCase` for events,
/// parameters and cases, `UpperCamelCase` for types. Keywords are escaped with
/// backticks rather than rejected.
enum SwiftNaming {
    /// Names are ASCII: a letter, then letters, digits and separators.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first.isASCIILetter else { return false }
        return name.utf8.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0.isNameSeparator }
    }

    /// The words of a valid name: the runs between separators.
    static func words(_ name: String) -> [ArraySlice<UInt8>] {
        Array(name.utf8).split(whereSeparator: \.isNameSeparator)
    }

    /// `Order Completed` → `orderCompleted`, `URLOpened` → `urlOpened`.
    static func lowerCamelCase(_ name: String) -> String {
        let parts = words(name)
        guard let first = parts.first else { return "" }
        var bytes = lowercasingLeadingCapitals(first)
        for word in parts.dropFirst() { bytes += capitalizingFirst(word) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `category source` → `CategorySource`.
    static func upperCamelCase(_ name: String) -> String {
        String(decoding: words(name).flatMap(capitalizingFirst), as: UTF8.self)
    }

    private static func capitalizingFirst(_ word: ArraySlice<UInt8>) -> [UInt8] {
        var bytes = Array(word)
        if let first = bytes.first, first.isASCIILowercase { bytes[0] = first - 32 }
        return bytes
    }

    /// Lowercases a leading run of capitals, leaving the last one of a run that
    /// starts the next word: `URLOpened` → `urlOpened`, `ID` → `id`.
    private static func lowercasingLeadingCapitals(_ word: ArraySlice<UInt8>) -> [UInt8] {
        var bytes = Array(word)
        var run = 0
        while run < bytes.count, bytes[run].isASCIIUppercase { run += 1 }
        if run > 1, run < bytes.count, bytes[run].isASCIILowercase { run -= 1 }
        for index in 0..<run { bytes[index] += 32 }
        return bytes
    }

    /// Keywords that must be written in backticks where a declaration names them.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch",
        "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self",
        "Self", "super", "throws", "true", "try", "some", "any",
    ]

    /// The identifier as it is written in generated code.
    static func escaped(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// Member names that would clash with what `AnalyticsEvent` already has, or that
    /// Swift does not allow after a dot even in backticks.
    static let reservedEventNames: Set<String> = [
        "init", "self", "Self", "Type", "Protocol", "name", "parameters", "metadata", "description",
        "hashValue", "hash", "encode", "decode",
    ]

    /// Case names that would clash with what a `String`-backed, `CaseIterable` enum has.
    static let reservedCaseNames: Set<String> = [
        "init", "self", "Self", "Type", "Protocol", "allCases", "rawValue", "hashValue", "hash",
        "analyticsValue", "AllCases", "RawValue",
    ]

    /// Parameter names that cannot be argument names.
    static let reservedParameterNames: Set<String> = ["self", "Self", "Type", "Protocol"]

    /// Type names that would shadow the types generated code uses.
    static let reservedTypeNames: Set<String> = [
        "String", "Int", "Double", "Bool", "Date", "URL", "UUID", "Array", "Optional", "Dictionary", "Set",
        "AnalyticsEvent", "AnalyticsValue", "AnalyticsValueConvertible", "ConsentCategory",
        "ParameterConstraint", "TaskSet", "Anna", "Foundation", "Swift", "Sendable", "CaseIterable",
        "Hashable", "Equatable", "Codable", "Any", "AnyObject", "Self", "Type", "Protocol", "Never", "Void",
        "Character", "Float", "Error",
    ]
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
    var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
}

extension UInt8 {
    var isASCIIUppercase: Bool { (0x41...0x5A).contains(self) }
    var isASCIILowercase: Bool { (0x61...0x7A).contains(self) }
    var isASCIILetter: Bool { isASCIIUppercase || isASCIILowercase }
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
    /// Space, `_`, `-` and `.` separate the words of a name.
    var isNameSeparator: Bool { self == 0x20 || self == 0x5F || self == 0x2D || self == 0x2E }
}

/// "Did you mean" suggestions by edit distance.
enum Suggestion {
    /// The closest candidate within a third of the word's length, if any.
    static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
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

    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
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
    static func hint(for word: String, in candidates: [String]) -> String {
        if let match = closest(to: word, in: candidates) { return "; did you mean '\(match)'?" }
        if candidates.isEmpty { return "" }
        return "; expected one of: \(candidates.joined(separator: ", "))"
    }
}
