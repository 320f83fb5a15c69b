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
        var text = SourceText(capacity: 256)
        for index in ordered.indices {
            let isOptional = ordered[index].type.isOptional
            let name = SwiftNaming.escaped(ordered[index].swiftName)
            text += name
            text += ": "
            text += ordered[index].swiftType
            if isOptional { text += " = nil" }
            if index != ordered.count - 1 { text += "," }
            arguments.append(text.takeString())
            if isOptional {
                text += "if let "
                text += name
                text += " { "
                text += dictionary
                text += ".updateValue("
                text += name
                text += ".analyticsValue, forKey: "
                text.appendLiteral(ordered[index].name)
                text += ") }"
                optionalAssignments.append(text.takeString())
            } else {
                text.appendLiteral(ordered[index].name)
                text += ": "
                text += name
                text += ".analyticsValue"
                if index != requiredCount - 1 { text += "," }
                requiredEntries.append(text.takeString())
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
