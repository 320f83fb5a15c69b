import AnnaRules
import Foundation
import _AnnaGeneratorCore

/// Turns a plan's names into names an Anna spec accepts, and keeps the names of one
/// scope (an event's parameters, the events, the types) apart after conversion.
struct ImportNameScope {
    /// How messages name what is in the scope: `parameter`, `event`.
    let word: String
    /// The word a converted name starts with when nothing of the original can start it.
    let prefix: String
    /// Swift names the scope may not use, and the word appended to one to free it.
    let reserved: Set<String>
    let reservedSuffix: String
    /// Whether keys are type names (UpperCamelCase) rather than member names.
    var isTypeScope = false
    /// Whether keys must also differ in snake case, as an object type's properties must
    /// (mappers rename nested keys, so two one snake-case name apart would overwrite each other).
    var checksSnakeCase = false
    private var snakeNames: [String: String] = [:]
    /// Swift names taken, with the original name that took each.
    private(set) var taken: [String: String] = [:]

    init(word: String, prefix: String, reserved: Set<String> = [], reservedSuffix: String = "Value") {
        self.word = word
        self.prefix = prefix
        self.reserved = reserved
        self.reservedSuffix = reservedSuffix
    }

    /// The outcome of ``claim(_:)``.
    struct Claim {
        /// The key to write.
        var key: String
        /// The key is not the original name: the plan's name was not a valid Anna name.
        var converted: Bool
        /// Why the key differs when the name collided with another or is reserved.
        var collision: String?
    }

    /// Claims a key for `original`.
    mutating func claim(_ original: String) -> Claim {
        var key = SwiftNaming.isValidName(original) ? original : Self.convert(original, prefix: prefix)
        var converted = key != original
        var collision: String?
        if isTypeScope { key = SwiftNaming.upperCamelCase(key) }
        var swift = swiftName(key)
        if reserved.contains(swift) {
            collision = "'\(swift)' is reserved in Swift or by Anna"
            key = swift + reservedSuffix
            swift = swiftName(key)
            converted = true
        }
        let snakeOther = checksSnakeCase ? snakeNames[SnakeCase.convert(key)] : nil
        if let other = taken[swift] ?? snakeOther ?? (reserved.contains(swift) ? "'\(swift)'" : nil) {
            var number = 2
            while taken[swift + String(number)] != nil || reserved.contains(swift + String(number))
                || (checksSnakeCase && snakeNames[SnakeCase.convert(swift + String(number))] != nil) {
                number += 1
            }
            collision = taken[swift] != nil
                ? "'\(other)' and '\(original)' both become '\(swift)' in Swift"
                : snakeOther != nil
                    ? "'\(other)' and '\(original)' are both '\(SnakeCase.convert(key))' in snake case, which mappers send"
                    : "'\(swift)' is reserved in Swift or by Anna"
            key = swift + String(number)
            swift = key
            converted = true
        }
        taken[swift] = original
        if checksSnakeCase { snakeNames[SnakeCase.convert(key)] = original }
        return Claim(key: key, converted: converted, collision: collision)
    }

    /// Marks a Swift name as taken without a claim: a name something else already uses.
    mutating func reserve(_ swiftName: String, by original: String) {
        taken[swiftName] = original
    }

    /// Frees a name claimed for a type that turned out not to be needed.
    mutating func release(_ swiftName: String) {
        taken[swiftName] = nil
    }

    func isTaken(_ swiftName: String) -> Bool { taken[swiftName] != nil || reserved.contains(swiftName) }

    private func swiftName(_ key: String) -> String {
        isTypeScope ? SwiftNaming.upperCamelCase(key) : SwiftNaming.lowerCamelCase(key)
    }

    /// `order/id` → `orderId`, `42 Things` → `event42Things`, `café` → `cafe`: the ASCII
    /// letters and digits of the name (accents folded away) as camelCase words.
    static func convert(_ original: String, prefix: String) -> String {
        let folded = original.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        var words: [String] = []
        var word = ""
        for scalar in folded.unicodeScalars {
            if scalar.isASCIILetter || scalar.isASCIIDigit {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        guard let first = words.first?.unicodeScalars.first else { return prefix }
        if first.isASCIIDigit { words.insert(prefix, at: 0) }
        return SwiftNaming.lowerCamelCase(words.joined(separator: " "))
    }

    /// `products` → `product`, `categories` → `category`, `addresses` → `address`: the
    /// name of one element of a list, for the object type its elements become.
    static func singular(_ name: String) -> String {
        let lower = name.lowercased()
        if lower.hasSuffix("ies"), name.count > 3 { return String(name.dropLast(3)) + "y" }
        for ending in ["sses", "shes", "ches", "xes", "zes"] where lower.hasSuffix(ending) { return String(name.dropLast(2)) }
        if lower.hasSuffix("s"), !lower.hasSuffix("ss"), !lower.hasSuffix("us"), !lower.hasSuffix("is"), name.count > 1 {
            return String(name.dropLast())
        }
        return name
    }
}

extension ImportNameScope {

    /// The scope of type names: Swift's and Anna's own types are taken.
    static func types() -> ImportNameScope {
        var scope = ImportNameScope(
            word: "type", prefix: "type",
            reserved: SwiftNaming.reservedTypeNames.union(SpecValidationPass.generatedTypeNames)
                .union(SpecValidationPass.scalarTypes.keys),
            reservedSuffix: "Type")
        scope.isTypeScope = true
        return scope
    }
}
