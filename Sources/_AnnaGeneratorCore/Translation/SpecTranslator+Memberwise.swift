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
        // A typed dictionary literal plus updateValue(_:forKey:) type-checks in about half
        // the time of one subscript assignment per parameter (scripts/measure-generator.sh).
        // Optionals come last in `ordered`, so the required ones are a prefix of it.
        let requiredCount = ordered.firstIndex(where: \.type.isOptional) ?? ordered.count
        var arguments: [String] = []
        arguments.reserveCapacity(ordered.count)
        var requiredEntries: [String] = []
        requiredEntries.reserveCapacity(requiredCount)
        var optionalAssignments: [String] = []
        optionalAssignments.reserveCapacity(ordered.count - requiredCount)
        for index in ordered.indices {
            let isOptional = ordered[index].type.isOptional
            let name = SwiftNaming.escaped(ordered[index].swiftName)
            arguments.append(String.concatenating(
                name, ": ", ordered[index].swiftType, isOptional ? " = nil" : "", index == ordered.count - 1 ? "" : ","))
            if isOptional {
                optionalAssignments.append(String.concatenating(
                    "if let ", name, " { ", dictionary, ".updateValue(", name, ".analyticsValue, forKey: ",
                    SwiftLiteral.string(ordered[index].name), ") }"))
            } else {
                requiredEntries.append(String.concatenating(
                    SwiftLiteral.string(ordered[index].name), ": ", name, ".analyticsValue", index == requiredCount - 1 ? "" : ","))
            }
        }
        return MemberwiseParts(arguments: arguments, requiredEntries: requiredEntries, optionalAssignments: optionalAssignments)
    }

    /// The ` - Parameters:` doc lines of the documented ones; empty when none is.
    func parameterDocLines(_ ordered: [TrackingSpec.Parameter]) -> [String] {
        guard ordered.contains(where: { !($0.description?.isBlank ?? true) }) else { return [] }
        let documented = ordered.compactMap { parameter -> (String, [String])? in
            let text = docLines(parameter.description)
            return text.isEmpty ? nil : (parameter.swiftName, text)
        }
        var lines = [" - Parameters:"]
        for (name, text) in documented {
            lines.append("   - \(name):\(text.first ?? "")")
            lines.append(contentsOf: text.dropFirst().map { "    \($0)" })
        }
        return lines
    }
}
