import AnnaRules

/// What an event's factory and an object type's initializer share: both take their
/// parameters (or properties) in signature order, optionals last and defaulting to
/// `nil`, and build a dictionary of `AnalyticsValue`s from them.
///
/// The translator keeps the parameters and spells each line only when it is asked
/// for: the compiled templates write the lines straight into the output
/// (``writeArguments(indent:into:)`` and its siblings), so a spec's thousands of
/// lines are never built as strings of their own; a template engine that reads the
/// model by name gets the same text from ``arguments``, ``requiredEntries`` and
/// ``optionalAssignments``. A model made from text (a test's) keeps that text.
struct MemberwiseParts: Sendable {
    private enum Form: Sendable {
        case text(arguments: [String], requiredEntries: [String], optionalAssignments: [String])
        /// In signature order: the first `requiredCount` are required, the rest optional.
        case parameters([TrackingSpec.Parameter], requiredCount: Int, dictionary: String)
    }

    private let form: Form

    /// Parts given as text, line by line.
    init(arguments: [String], requiredEntries: [String], optionalAssignments: [String]) {
        form = .text(arguments: arguments, requiredEntries: requiredEntries, optionalAssignments: optionalAssignments)
    }

    /// The parts of `ordered`, parameters in signature order (required ones first),
    /// whose optional ones are added to the dictionary named `dictionary`.
    init(_ ordered: [TrackingSpec.Parameter], dictionary: String) {
        let requiredCount = ordered.firstIndex(where: \.type.isOptional) ?? ordered.count
        form = .parameters(ordered, requiredCount: requiredCount, dictionary: dictionary)
    }

    /// How many arguments there are.
    var argumentCount: Int {
        switch form {
        case .text(let arguments, _, _): arguments.count
        case .parameters(let ordered, _, _): ordered.count
        }
    }

    /// Whether any is required.
    var hasRequired: Bool {
        switch form {
        case .text(_, let requiredEntries, _): !requiredEntries.isEmpty
        case .parameters(_, let requiredCount, _): requiredCount > 0
        }
    }

    /// Whether any is optional, so the dictionary is added to after it is made.
    var hasOptional: Bool {
        switch form {
        case .text(_, _, let optionalAssignments): !optionalAssignments.isEmpty
        case .parameters(let ordered, let requiredCount, _): requiredCount < ordered.count
        }
    }

    /// `name: Type` (` = nil` for optionals), each with the comma that separates it
    /// from the next.
    var arguments: [String] {
        switch form {
        case .text(let arguments, _, _): arguments
        case .parameters(let ordered, _, _): Self.spell(ordered.indices, with: writeArgument)
        }
    }

    /// The dictionary literal's entries for the required ones, comma-separated.
    var requiredEntries: [String] {
        switch form {
        case .text(_, let requiredEntries, _): requiredEntries
        case .parameters(_, let requiredCount, _): Self.spell(0..<requiredCount, with: writeRequiredEntry)
        }
    }

    /// One `updateValue(_:forKey:)` per optional one.
    var optionalAssignments: [String] {
        switch form {
        case .text(_, _, let optionalAssignments): optionalAssignments
        case .parameters(let ordered, let requiredCount, _): Self.spell(requiredCount..<ordered.count, with: writeOptionalAssignment)
        }
    }

    /// Writes each argument on a line of its own after `indent`.
    func writeArguments(indent: String, into out: inout SourceText) {
        switch form {
        case .text(let arguments, _, _): out.appendLines(arguments, prefix: indent)
        case .parameters(let ordered, _, _): Self.write(ordered.indices, with: writeArgument, indent: indent, into: &out)
        }
    }

    /// Writes each required entry on a line of its own after `indent`.
    func writeRequiredEntries(indent: String, into out: inout SourceText) {
        switch form {
        case .text(_, let requiredEntries, _): out.appendLines(requiredEntries, prefix: indent)
        case .parameters(_, let requiredCount, _): Self.write(0..<requiredCount, with: writeRequiredEntry, indent: indent, into: &out)
        }
    }

    /// Writes each optional assignment on a line of its own after `indent`.
    func writeOptionalAssignments(indent: String, into out: inout SourceText) {
        switch form {
        case .text(_, _, let optionalAssignments): out.appendLines(optionalAssignments, prefix: indent)
        case .parameters(let ordered, let requiredCount, _):
            Self.write(requiredCount..<ordered.count, with: writeOptionalAssignment, indent: indent, into: &out)
        }
    }

    // MARK: Spelling one line from the parameters

    /// `price: Double? = nil,`.
    private func writeArgument(at index: Int, into out: inout SourceText) {
        guard case .parameters(let ordered, _, _) = form else { return }
        out += SwiftNaming.escaped(ordered[index].swiftName)
        out += ": "
        out += ordered[index].swiftType
        if ordered[index].type.isOptional { out += " = nil" }
        if index != ordered.count - 1 { out += "," }
    }

    /// `"title": title.analyticsValue,`.
    private func writeRequiredEntry(at index: Int, into out: inout SourceText) {
        guard case .parameters(let ordered, let requiredCount, _) = form else { return }
        out.appendLiteral(ordered[index].name)
        out += ": "
        out += SwiftNaming.escaped(ordered[index].swiftName)
        out += ".analyticsValue"
        if index != requiredCount - 1 { out += "," }
    }

    /// `if let price { _parameters.updateValue(price.analyticsValue, forKey: "price") }`.
    private func writeOptionalAssignment(at index: Int, into out: inout SourceText) {
        guard case .parameters(let ordered, _, let dictionary) = form else { return }
        let name = SwiftNaming.escaped(ordered[index].swiftName)
        out += "if let "
        out += name
        out += " { "
        out += dictionary
        out += ".updateValue("
        out += name
        out += ".analyticsValue, forKey: "
        out.appendLiteral(ordered[index].name)
        out += ") }"
    }

    private static func write(
        _ indices: Range<Int>, with writeLine: (Int, inout SourceText) -> Void, indent: String, into out: inout SourceText
    ) {
        for index in indices {
            out += indent
            writeLine(index, &out)
            out += "\n"
        }
    }

    /// The lines `writeLine` writes for `indices`, each as a string.
    private static func spell(_ indices: Range<Int>, with writeLine: (Int, inout SourceText) -> Void) -> [String] {
        var text = SourceText(capacity: 256)
        return indices.map { index in
            writeLine(index, &text)
            return text.takeString()
        }
    }
}
