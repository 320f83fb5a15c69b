/// Turns spec names into Swift identifiers and checks that they are usable.
///
/// Names may use spaces, `_`, `-` and `.` as separators (`Order Completed`,
/// `order_completed`), which conversion removes: `lowerCamelCase` for events,
/// parameters and cases, `UpperCamelCase` for types. Keywords are escaped with
/// backticks rather than rejected.
package enum SwiftNaming {
    /// Names are ASCII: a letter, then letters, digits and separators.
    package static func isValidName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first, first.isASCIILetter else { return false }
            return bytes.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0.isNameSeparator }
        }
    }

    /// The words of a valid name: the runs between separators.
    package static func words(_ name: String) -> [ArraySlice<UInt8>] {
        Array(name.utf8).split(whereSeparator: \.isNameSeparator)
    }

    /// `Order Completed` → `orderCompleted`, `URLOpened` → `urlOpened`.
    package static func lowerCamelCase(_ name: String) -> String {
        // Most names are one word that already starts in lowercase (`orderId`): nothing
        // to remove or lowercase, so the name itself is the result.
        var whole = name
        let isOneLowercaseWord = whole.withUTF8 { bytes in
            guard let first = bytes.first, !first.isASCIIUppercase else { return false }
            return !bytes.contains(where: \.isNameSeparator)
        }
        if isOneLowercaseWord { return name }
        let parts = words(name)
        guard let first = parts.first else { return "" }
        var bytes = lowercasingLeadingCapitals(first)
        for word in parts.dropFirst() { bytes += capitalizingFirst(word) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `category source` → `CategorySource`.
    package static func upperCamelCase(_ name: String) -> String {
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
    package static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch",
        "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self",
        "Self", "super", "throws", "true", "try", "some", "any",
    ]

    /// The identifier as it is written in generated code.
    package static func escaped(_ identifier: String) -> String {
        mightBeKeyword(identifier) && keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// Whether an identifier is shaped like one of ``keywords``: 2 to 15 ASCII letters,
    /// lowercase after the first. Most names are not (`orderId`, `step2`), and this
    /// tells so from the bytes, without hashing the name.
    private static func mightBeKeyword(_ identifier: String) -> Bool {
        var identifier = identifier
        return identifier.withUTF8 { bytes in
            guard (2...15).contains(bytes.count), bytes[0].isASCIILetter else { return false }
            return bytes.dropFirst().allSatisfy(\.isASCIILowercase)
        }
    }

    /// Member names that would clash with what `AnalyticsEvent` already has, or that
    /// Swift does not allow after a dot even in backticks.
    package static let reservedEventNames: Set<String> = [
        "init", "self", "Self", "Type", "Protocol", "name", "parameters", "metadata", "description",
        "hashValue", "hash", "encode", "decode",
    ]

    /// Case names that would clash with what a `String`-backed, `CaseIterable` enum has.
    package static let reservedCaseNames: Set<String> = [
        "init", "self", "Self", "Type", "Protocol", "allCases", "rawValue", "hashValue", "hash",
        "analyticsValue", "AllCases", "RawValue",
    ]

    /// Parameter names that cannot be argument names.
    package static let reservedParameterNames: Set<String> = ["self", "Self", "Type", "Protocol"]

    /// Type names that would shadow the types generated code uses.
    package static let reservedTypeNames: Set<String> = [
        "String", "Int", "Double", "Bool", "Date", "URL", "UUID", "Array", "Optional", "Dictionary", "Set",
        "AnalyticsEvent", "AnalyticsValue", "AnalyticsValueConvertible", "ConsentCategory",
        "ParameterConstraint", "TaskSet", "Anna", "Foundation", "Swift", "Sendable", "CaseIterable",
        "Hashable", "Equatable", "Codable", "Any", "AnyObject", "Self", "Type", "Protocol", "Never", "Void",
        "Character", "Float", "Error",
    ]
}

extension Unicode.Scalar {
    package var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
    package var isASCIIDigit: Bool { (0x30...0x39).contains(value) }
}

extension UInt8 {
    package var isASCIIUppercase: Bool { (0x41...0x5A).contains(self) }
    package var isASCIILowercase: Bool { (0x61...0x7A).contains(self) }
    package var isASCIILetter: Bool { isASCIIUppercase || isASCIILowercase }
    package var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
    /// Space, `_`, `-` and `.` separate the words of a name.
    package var isNameSeparator: Bool { self == 0x20 || self == 0x5F || self == 0x2D || self == 0x2E }
}
