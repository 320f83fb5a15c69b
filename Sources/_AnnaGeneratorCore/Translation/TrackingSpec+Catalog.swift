import AnnaRules
import Foundation

/// What tasks built at run time rely on, as data: the events a catalog lists, its
/// fingerprint and the `with:` values of task descriptions. The generated catalog
/// and `anna bundle` both come through here, so a bundle matches the catalog its
/// app was built with.
extension TrackingSpec {
    /// The events a catalog lists: every event but the deprecated ones, whose
    /// factories warn where they are called.
    var catalogEvents: [Event] {
        events.filter { $0.deprecationMessage == nil }
    }

    /// A stable hash of what a task may rely on: each catalog event's name and its
    /// parameters' names, kinds, array and optional marks and enum values, in name
    /// order, with the same of each object type's properties. Descriptions,
    /// constraints, PII and the order of declaration do not change it. FNV-1a, 64
    /// bits, as 16 hexadecimal digits.
    package var catalogFingerprint: String {
        var canonical = ""
        for event in catalogEvents.sorted(by: { $0.name < $1.name }) {
            canonical += event.name + "("
            for parameter in event.parameters.sorted(by: { $0.name < $1.name }) {
                canonical += self.canonical(parameter)
            }
            canonical += ")\n"
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in canonical.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A `with` value as a task description holds it: an expression as `$…`, a
    /// literal as JSON has it (URLs, UUIDs and dates as text, enum cases by raw
    /// value, a string starting with `$` as `$$…`).
    /// - Parameter expression: A task argument's expression.
    /// - Returns: The value for the task's `with`.
    package func taskValue(_ expression: TaskExpression) -> TaskValue {
        let literal: TaskLiteral
        switch expression {
        case .focus(let focus): return .string("$" + focus.description)
        case .literal(let value): literal = value
        }
        func text(_ raw: String) -> TaskValue { .string(raw.hasPrefix("$") ? "$" + raw : raw) }
        switch literal {
        case .null: return .null
        case .string(let raw): return text(raw)
        case .int(let number): return .int(number)
        case .double(let number): return number.isFinite ? .double(number) : .string("\(number)")
        case .bool(let flag): return .bool(flag)
        case .url(let raw), .uuid(let raw): return .string(raw)
        case .date(let seconds): return .string(Date(timeIntervalSince1970: seconds).formatted(.iso8601))
        case .enumCase(let type, let name):
            return text(types.first { $0.swiftName == type }?.cases.first { $0.swiftName == name }?.rawValue ?? name)
        }
    }

    /// The descriptor kind of a parameter's base type: `string`, `enumeration`, `object`…
    func catalogKind(_ base: ValueType.Base) -> String {
        switch base {
        case .named: "enumeration"
        case .object: "object"
        default: "\(base)"
        }
    }

    /// The raw values of a parameter's enum type; empty for other types.
    func enumValues(of parameter: Parameter) -> [String] {
        guard case .named(let name) = parameter.type.base else { return [] }
        return types.first { $0.name == name }?.cases.map(\.rawValue) ?? []
    }

    /// An object type's shape for the fingerprint: its properties' names, kinds, marks
    /// and enum values, in name order, nested objects within; a task that reads an
    /// object relies on all of them.
    private func shape(of name: String) -> String {
        guard let object = objects.first(where: { $0.name == name }) else { return "" }
        var text = "<"
        for property in object.properties.sorted(by: { $0.name < $1.name }) {
            text += canonical(property)
        }
        return text + ">"
    }

    private func canonical(_ parameter: Parameter) -> String {
        var text = parameter.name + ":" + catalogKind(parameter.type.base)
        if case .object(let name) = parameter.type.base { text += shape(of: name) }
        if parameter.type.isArray { text += "[]" }
        if parameter.type.isOptional { text += "?" }
        let values = enumValues(of: parameter)
        if !values.isEmpty { text += "{" + values.joined(separator: "|") + "}" }
        return text + ";"
    }
}
