import AnnaRules
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
        let catalogEvents = catalogEvents
        var hash = FNV1a()
        // Sorted by the names alone: comparing through the events would copy an event
        // for each comparison.
        let names = catalogEvents.map(\.name)
        for eventIndex in names.indices.sorted(by: { names[$0] < names[$1] }) {
            let parameters = catalogEvents[eventIndex].parameters
            hash.combine(catalogEvents[eventIndex].name)
            hash.combine(UInt8(ascii: "("))
            for index in Self.indicesByName(parameters) {
                combineCanonical(parameters, at: index, into: &hash)
            }
            hash.combine(")\n")
        }
        return hash.hexadecimal
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
        default: base.specName
        }
    }

    /// The raw values of a parameter's enum type; empty for other types.
    func enumValues(of parameter: Parameter) -> [String] {
        guard case .named(let name) = parameter.type.base else { return [] }
        return types.first { $0.name == name }?.cases.map(\.rawValue) ?? []
    }

    /// The indices of `parameters` in name order. An event has a handful, so they are
    /// sorted by insertion, in place, which is cheaper than a general sort at that size.
    private static func indicesByName(_ parameters: [Parameter]) -> [Int] {
        var order = Array(parameters.indices)
        for position in order.indices.dropFirst() {
            let index = order[position]
            var slot = position
            while slot > 0, parameters[index].name < parameters[order[slot - 1]].name {
                order[slot] = order[slot - 1]
                slot -= 1
            }
            order[slot] = index
        }
        return order
    }

    /// A parameter for the fingerprint: its name, kind, marks and enum values; an
    /// object type's shape (its properties the same way, in name order, nested objects
    /// within), since a task that reads an object relies on all of them.
    private func combineCanonical(_ parameters: [Parameter], at index: Int, into hash: inout FNV1a) {
        let type = parameters[index].type
        hash.combine(parameters[index].name)
        hash.combine(UInt8(ascii: ":"))
        hash.combine(catalogKind(type.base))
        if case .object(let name) = type.base, let object = objects.first(where: { $0.name == name }) {
            hash.combine(UInt8(ascii: "<"))
            for property in Self.indicesByName(object.properties) {
                combineCanonical(object.properties, at: property, into: &hash)
            }
            hash.combine(UInt8(ascii: ">"))
        }
        if type.isArray { hash.combine("[]") }
        if type.isOptional { hash.combine(UInt8(ascii: "?")) }
        if case .named(let name) = type.base, let enumType = types.first(where: { $0.name == name }), !enumType.cases.isEmpty {
            hash.combine(UInt8(ascii: "{"))
            for (position, enumCase) in enumType.cases.enumerated() {
                if position > 0 { hash.combine(UInt8(ascii: "|")) }
                hash.combine(enumCase.rawValue)
            }
            hash.combine(UInt8(ascii: "}"))
        }
        hash.combine(UInt8(ascii: ";"))
    }
}
