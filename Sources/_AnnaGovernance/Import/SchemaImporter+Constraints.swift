import AnnaRules
import Foundation
import _AnnaGeneratorCore

extension SchemaImporter {
    /// `minimum`, `maximum` and their exclusive forms (a number since draft 6, a
    /// boolean beside `minimum`/`maximum` in draft 4).
    mutating func numberConstraints(_ schema: JSONNode, isInteger: Bool, path: PropertyPath, property: inout ImportedProperty) {
        var min = Self.finiteNumber(schema["minimum"])
        var max = Self.finiteNumber(schema["maximum"])
        if let field = schema["exclusiveMinimum"], let bound = Self.exclusiveBound(field, inclusive: min) {
            if !isInteger { exclusiveWarning("exclusiveMinimum", "min", path: path, at: field.location) }
            // For whole numbers an exclusive bound is the next whole number: nothing is lost.
            let limit = isInteger ? (bound + 1).rounded(.down) : bound
            min = Swift.max(min ?? limit, limit)
        }
        if let field = schema["exclusiveMaximum"], let bound = Self.exclusiveBound(field, inclusive: max) {
            if !isInteger { exclusiveWarning("exclusiveMaximum", "max", path: path, at: field.location) }
            let limit = isInteger ? (bound - 1).rounded(.up) : bound
            max = Swift.min(max ?? limit, limit)
        }
        if isInteger {
            min = min.map { $0.rounded(.up) }
            max = max.map { $0.rounded(.down) }
        }
        if let low = min, let high = max, low > high {
            warning("\(path.description) allows no number (minimum \(low.compactDescription) above maximum \(high.compactDescription)); its bounds are not imported", at: schema.location)
            return
        }
        property.min = min
        property.max = max
        if let field = schema["multipleOf"] {
            warning("'multipleOf' of \(path.description) is not imported: Anna has no such constraint", at: field.location)
        }
        if let values = schema["enum"] ?? schema["const"] {
            warning("the allowed values of the number \(path.description) are not imported: Anna's enums are strings; use min and max", at: values.location)
        }
    }

    /// A number that a spec can write: 1e400 reads as infinity, and such a bound is no bound.
    private static func finiteNumber(_ node: JSONNode?) -> Double? {
        guard let node, case .number(let value, _) = node.content, value.isFinite else { return nil }
        return value
    }

    /// An exclusive bound: a number (draft 6 and later), or `true` beside the inclusive
    /// bound (draft 4).
    private static func exclusiveBound(_ field: JSONNode, inclusive: Double?) -> Double? {
        if let value = finiteNumber(field) { return value }
        if case .bool(true) = field.content { return inclusive }
        return nil
    }

    private mutating func exclusiveWarning(_ key: String, _ annaKey: String, path: PropertyPath, at location: SourceLocation) {
        warning("'\(key)' of \(path.description) is written as an inclusive '\(annaKey)': Anna's bounds include the limit", at: location)
    }

    /// A string, or a `date`, `url` or `uuid` for the formats Anna has, with its constraints.
    mutating func stringType(_ schema: JSONNode, path: PropertyPath, property: inout ImportedProperty) -> ImportedValueType {
        if let format = schema["format"], let name = format.string {
            let base: String? = switch name {
            case "date-time": "date"
            case "uri", "url": "url"
            case "uuid": "uuid"
            default: nil
            }
            if let base {
                for key in ["minLength", "maxLength", "pattern", "enum", "const"] where schema[key] != nil {
                    warning("'\(key)' of \(path.description) is not imported: Anna's \(base) values take no string constraints", at: schema[key]?.location ?? schema.location)
                }
                return ImportedValueType(base: base)
            }
            warning("format '\(name)' of \(path.description) is not checked by Anna; the value is a plain string", at: format.location)
        }
        property.minLength = count(schema, "minLength", path: path)
        property.maxLength = count(schema, "maxLength", path: path)
        if let minimum = property.minLength, let maximum = property.maxLength, minimum > maximum {
            warning("\(path.description) allows no string (minLength above maxLength); its lengths are not imported", at: schema.location)
            property.minLength = nil
            property.maxLength = nil
        }
        if let field = schema["pattern"], let pattern = field.string {
            if let problem = Self.patternProblem(pattern) {
                warning("'pattern' of \(path.description) is not imported: \(problem)", at: field.location)
            } else {
                property.pattern = pattern
            }
        }
        if let values = schema["enum"]?.elements ?? schema["const"].map({ [$0] }) {
            stringEnum(values, of: schema, at: (schema["enum"] ?? schema["const"])?.location ?? schema.location, path: path, property: &property)
        }
        return ImportedValueType(base: "string")
    }

    private mutating func count(_ schema: JSONNode, _ key: String, path: PropertyPath) -> Int? {
        guard let field = schema[key] else { return nil }
        guard let value = field.number, value >= 0, value.rounded() == value, value < 1e9 else {
            warning("'\(key)' of \(path.description) is not a whole number of characters; it is not imported", at: field.location)
            return nil
        }
        return Int(value)
    }

    /// Why Anna cannot use a pattern (its dialect, or exponential backtracking), or `nil`.
    static func patternProblem(_ pattern: String) -> String? {
        do {
            let syntax = try RegexParser.parse(pattern)
            _ = try RegexProgram(syntax)
            if let hazard = RegexHazard.find(in: syntax) { return "it \(hazard.message(in: pattern))" }
            return nil
        } catch {
            return "Anna's patterns cannot say it (\(error.message)); see the pattern syntax in the Tracking Spec article (TrackingSpec.md)"
        }
    }

    /// String values: an enum when each can be a Swift case, otherwise a pattern that
    /// accepts exactly them.
    private mutating func stringEnum(
        _ values: [JSONNode], of schema: JSONNode, at location: SourceLocation, path: PropertyPath, property: inout ImportedProperty
    ) {
        let strings = values.compactMap(\.string)
        // `null` among the values is how a nullable enum says it (read as optional).
        if values.contains(where: { $0.string == nil && $0.content != .null }) {
            warning("values of 'enum' of \(path.description) that are not strings are not imported", at: location)
        }
        guard !strings.isEmpty else { return }
        var seen: Set<String> = []
        let usable = strings.allSatisfy { value in
            let swift = SwiftNaming.lowerCamelCase(value)
            return SwiftNaming.isValidName(value) && !SwiftNaming.reservedCaseNames.contains(swift) && seen.insert(swift).inserted
        }
        if usable {
            if property.pattern != nil {
                warning("'pattern' of \(path.description) is not imported beside its enum: Anna takes one or the other", at: location)
                property.pattern = nil
            }
            property.enumValues = strings
            property.enumTitle = property.enumTitle ?? Self.typeTitle(of: schema)
            return
        }
        let alternatives = strings.map(Self.escapedForPattern).joined(separator: "|")
        property.pattern = "^(?:\(alternatives))$"
        warning("the values of 'enum' of \(path.description) cannot all be Swift case names; written as a pattern that accepts exactly them, without a Swift enum", at: location)
    }

    /// `a.b` → `a\.b`: the value as a literal in a pattern.
    static func escapedForPattern(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += "\\x{\(String(scalar.value, radix: 16))}"
                continue
            }
            if "\\^$.|?*+()[]{}/-".unicodeScalars.contains(scalar) { result += "\\" }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
