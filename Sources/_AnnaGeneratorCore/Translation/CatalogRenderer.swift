import AnnaRules
import Foundation

/// The Swift appended to a spec's generated file for tasks built at run time: the
/// event catalog (`EventCatalog.<name>`: every event's parameters and types, and a
/// checked factory through the typed ones) and the spec's tasks as data
/// (`TaskDescription.<name>`). Written by the generator whatever the templates,
/// since it is what run-time tasks are checked against, not presentation.
package enum CatalogRenderer {
    /// The Swift, or nothing for a spec without events.
    static func render(_ spec: TrackingSpec) -> String {
        let events = catalogEvents(spec)
        guard !spec.events.isEmpty else { return "" }
        let access = spec.access == .public ? "public " : ""
        let setName = spec.namespace ?? spec.baseName
        let identifier = SpecTranslator.taskSetIdentifier(setName)
        let fileName = String(spec.file.split(separator: "/").last ?? Substring(spec.file))
        var text = "\nextension EventCatalog {\n"
        text += "    /// The events of \(SwiftLiteral.commentLines(fileName).joined(separator: " ")), described for tasks built at run time\n"
        text += "    /// (task bundles, reloaded tasks): a task can only report these, with values of these types.\n"
        text += "    /// Deprecated events are left out.\n"
        text += "    \(access)static let \(identifier) = EventCatalog(\n"
        text += "        name: \(SwiftLiteral.string(setName)),\n"
        text += "        fingerprint: \(SwiftLiteral.string(fingerprint(spec))),\n"
        text += "        events: [\n"
        for event in events {
            if event.parameters.isEmpty {
                text += "            EventDescriptor(name: \(SwiftLiteral.string(event.name)), parameters: []),\n"
                continue
            }
            text += "            EventDescriptor(name: \(SwiftLiteral.string(event.name)), parameters: [\n"
            for parameter in event.parameters {
                text += "                \(descriptor(parameter, spec: spec)),\n"
            }
            text += "            ]),\n"
        }
        text += "        ],\n"
        text += "        specPath: {\n            #if DEBUG\n            return \(SwiftLiteral.string(spec.file))\n            #else\n            return nil\n            #endif\n        }(),\n"
        text += "        make: { (name: String, arguments: CatalogArguments) throws(EventCatalogError) -> AnalyticsEvent? in\n"
        text += "            switch name {\n"
        for event in events {
            text += "            case \(SwiftLiteral.string(event.name)):\n"
            let factory = "AnalyticsEvent.\(SwiftNaming.escaped(event.swiftName))"
            if event.parameters.isEmpty {
                text += "                return \(factory)\n"
                continue
            }
            let arguments = event.signatureParameters.map { parameter in
                let method = parameter.type.isOptional ? "optional" : "required"
                return "\(argumentLabel(parameter.swiftName)): try arguments.\(method)(\(SwiftLiteral.string(parameter.name)), as: \(parameter.swiftValueType).self)"
            }
            text += "                return \(factory)(\n                    \(arguments.joined(separator: ",\n                    "))\n                )\n"
        }
        text += "            default:\n                return nil\n            }\n        }\n    )\n}\n"
        text += taskDescriptions(spec, access: access, identifier: identifier, fileName: fileName)
        return text
    }

    /// A name as an argument label at a call site, where only `inout` needs backticks
    /// (the compiler warns about the others').
    static func argumentLabel(_ name: String) -> String {
        name == "inout" ? "`inout`" : name
    }

    /// The events a catalog lists: every event but the deprecated ones, whose
    /// factories warn where they are called.
    static func catalogEvents(_ spec: TrackingSpec) -> [TrackingSpec.Event] {
        spec.events.filter { $0.deprecationMessage == nil }
    }

    private static func descriptor(_ parameter: TrackingSpec.Parameter, spec: TrackingSpec) -> String {
        var text = "ParameterDescriptor(name: \(SwiftLiteral.string(parameter.name)), type: \(parameter.swiftValueType).self, kind: .\(kind(parameter.type.base))"
        if parameter.type.isArray { text += ", isArray: true" }
        if parameter.type.isOptional { text += ", isOptional: true" }
        let values = enumValues(parameter, spec: spec)
        if !values.isEmpty { text += ", enumValues: [\(values.map(SwiftLiteral.string).joined(separator: ", "))]" }
        return text + ")"
    }

    private static func kind(_ base: ValueType.Base) -> String {
        switch base {
        case .named: "enumeration"
        case .object: "object"
        default: "\(base)"
        }
    }

    /// An object type's shape for the fingerprint: its properties' names, kinds, marks
    /// and enum values, in name order, nested objects within; a task that reads an
    /// object relies on all of them.
    private static func shape(of name: String, spec: TrackingSpec) -> String {
        guard let object = spec.objects.first(where: { $0.name == name }) else { return "" }
        var text = "<"
        for property in object.properties.sorted(by: { $0.name < $1.name }) {
            text += canonical(property, spec: spec)
        }
        return text + ">"
    }

    private static func canonical(_ parameter: TrackingSpec.Parameter, spec: TrackingSpec) -> String {
        var text = parameter.name + ":" + kind(parameter.type.base)
        if case .object(let name) = parameter.type.base { text += shape(of: name, spec: spec) }
        if parameter.type.isArray { text += "[]" }
        if parameter.type.isOptional { text += "?" }
        let values = enumValues(parameter, spec: spec)
        if !values.isEmpty { text += "{" + values.joined(separator: "|") + "}" }
        return text + ";"
    }

    private static func enumValues(_ parameter: TrackingSpec.Parameter, spec: TrackingSpec) -> [String] {
        guard case .named(let name) = parameter.type.base else { return [] }
        return spec.types.first { $0.name == name }?.cases.map(\.rawValue) ?? []
    }

    /// A stable hash of what a task may rely on: each catalog event's name and its
    /// parameters' names, kinds, array and optional marks and enum values, in name
    /// order, with the same of each object type's properties. Descriptions,
    /// constraints, PII and the order of declaration do not change it. FNV-1a, 64 bits, as 16 hexadecimal digits.
    package static func fingerprint(_ spec: TrackingSpec) -> String {
        var canonical = ""
        for event in catalogEvents(spec).sorted(by: { $0.name < $1.name }) {
            canonical += event.name + "("
            for parameter in event.parameters.sorted(by: { $0.name < $1.name }) {
                canonical += self.canonical(parameter, spec: spec)
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

    // MARK: Tasks as data

    private static func taskDescriptions(_ spec: TrackingSpec, access: String, identifier: String, fileName: String) -> String {
        guard !spec.tasks.isEmpty else { return "" }
        var text = "\nextension TaskDescription {\n"
        text += "    /// The tasks of \(SwiftLiteral.commentLines(fileName).joined(separator: " ")) as data: what `TaskSet.\(identifier)` compiles,\n"
        text += "    /// for a manager to interpret (`manager.loadTasks(_:catalog:)`) or a bundle to carry.\n"
        text += "    \(access)static let \(identifier): [TaskDescription] = [\n"
        for task in spec.tasks {
            let source = "\(fileName):\(task.location.line):\(task.location.column)"
            text += "        TaskDescription(\n"
            text += "            match: [\(task.match.map(SwiftLiteral.string).joined(separator: ", "))],\n"
            text += "            report: \(SwiftLiteral.string(task.event.name)),\n"
            let with = task.arguments.map { "\(SwiftLiteral.string($0.parameter.name)): \(value($0.expression, spec: spec))" }
            text += "            with: [\(with.isEmpty ? ":" : with.joined(separator: ", "))],\n"
            text += "            source: \(SwiftLiteral.string(source))\n"
            text += "        ),\n"
        }
        text += "    ]\n}\n"
        return text
    }

    /// A `with` value as a `TaskDescription.Value` literal.
    private static func value(_ expression: TaskExpression, spec: TrackingSpec) -> String {
        switch withValue(expression, spec: spec) {
        case .null: ".null"
        case .string(let text): ".string(\(SwiftLiteral.string(text)))"
        case .int(let number): ".int(\(number))"
        case .double(let number): ".double(\(number))"
        case .bool(let flag): ".bool(\(flag))"
        }
    }

    /// A `with` value as a task description holds it: an expression as `$…`, a
    /// literal as JSON has it (URLs, UUIDs and dates as text, enum cases by raw
    /// value, a string starting with `$` as `$$…`).
    package static func withValue(_ expression: TaskExpression, spec: TrackingSpec) -> TaskValue {
        guard case .literal(let literal) = expression else { return .string("$" + expression.specText) }
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
            return text(spec.types.first { $0.swiftName == type }?.cases.first { $0.swiftName == name }?.rawValue ?? name)
        }
    }
}

extension TaskExpression {
    /// The expression as a spec writes it after `$`, by the runtime parser's own
    /// rendering; empty for a literal.
    var specText: String { focusExpression?.description ?? "" }

    /// The runtime's form of the expression; `nil` for a literal.
    var focusExpression: FocusExpression? {
        switch self {
        case .literal: nil
        case .path: .path
        case .index: .index
        case .name: .name
        case .section: .section
        case .visible: .visible
        case .value(let keyPath): .value(keyPath)
        case .visibleDuration: .visibleDuration
        case .eventName: .eventName
        case .eventTime: .eventTime
        case .ancestor(let levels, let inner): inner.focusExpression.map { .ancestor(levels, $0) }
        }
    }
}
