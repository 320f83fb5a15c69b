import AnnaRules

/// What an event's factory and an object type's initializer share: both take their
/// parameters (or properties) in signature order, optionals last and defaulting to
/// `nil`, and build a dictionary of `AnalyticsValue`s from them.
struct MemberwiseParts {
    /// `name: Type` (` = nil` for optionals), comma-separated.
    var arguments: [String]
    /// The dictionary literal's entries for the required ones.
    var requiredEntries: [String]
    /// One `updateValue(_:forKey:)` per optional one.
    var optionalAssignments: [String]
    /// Whether any is required.
    var hasRequired: Bool { !requiredEntries.isEmpty }
}

extension SpecTranslator {
    /// The arguments, dictionary entries and optional assignments of `ordered`, writing
    /// into the dictionary named `dictionary`.
    func memberwiseParts(_ ordered: [TrackingSpec.Parameter], dictionary: String) -> MemberwiseParts {
        let arguments = ordered.enumerated().map { index, parameter in
            let separator = index == ordered.count - 1 ? "" : ","
            return String.concatenating(
                SwiftNaming.escaped(parameter.swiftName), ": ", parameter.swiftType, parameter.type.isOptional ? " = nil" : "", separator)
        }
        // A typed dictionary literal plus updateValue(_:forKey:) type-checks in about half
        // the time of one subscript assignment per parameter (scripts/measure-generator.sh).
        let required = ordered.filter { !$0.type.isOptional }
        let requiredEntries = required.enumerated().map { index, parameter in
            let separator = index == required.count - 1 ? "" : ","
            return String.concatenating(SwiftLiteral.string(parameter.name), ": ", SwiftNaming.escaped(parameter.swiftName), ".analyticsValue", separator)
        }
        let optionalAssignments = ordered.filter(\.type.isOptional).map { parameter in
            let name = SwiftNaming.escaped(parameter.swiftName)
            return String.concatenating(
                "if let ", name, " { ", dictionary, ".updateValue(", name, ".analyticsValue, forKey: ", SwiftLiteral.string(parameter.name), ") }")
        }
        return MemberwiseParts(arguments: arguments, requiredEntries: requiredEntries, optionalAssignments: optionalAssignments)
    }

    /// The ` - Parameters:` doc lines of the documented ones; empty when none is.
    func parameterDocLines(_ ordered: [TrackingSpec.Parameter]) -> [String] {
        let documented = ordered.compactMap { parameter -> (String, [String])? in
            let text = docLines(parameter.description)
            return text.isEmpty ? nil : (parameter.swiftName, text)
        }
        guard !documented.isEmpty else { return [] }
        var lines = [" - Parameters:"]
        for (name, text) in documented {
            lines.append("   - \(name):\(text.first ?? "")")
            lines.append(contentsOf: text.dropFirst().map { "    \($0)" })
        }
        return lines
    }
}
