import AnnaRules
import Foundation

/// The `TaskSet` a spec's `tasks:` become: one `FocusTask` per task, whose closure
/// reads the node with the expressions of `with:` and calls the event's factory.
extension SpecTranslator {
    func taskSetModel(_ spec: TrackingSpec, fileName: String) -> (name: String, nameLiteral: String, availability: String?, tasks: [RenderModel.TaskModel]) {
        let setName = spec.namespace ?? spec.baseName
        let tasks = spec.tasks.enumerated().map { position, task in
            taskModel(task, spec: spec, fileName: fileName, isLast: position == spec.tasks.count - 1)
        }
        let deprecated = Set(spec.tasks.map(\.report)).filter { name in
            spec.events.first { $0.name == name }?.deprecationMessage != nil
        }.sorted()
        let availability = deprecated.isEmpty ? nil
            : "@available(*, deprecated, message: \(SwiftLiteral.string("reports the deprecated event\(deprecated.count == 1 ? "" : "s") \(deprecated.joined(separator: ", "))")))"
        return (Self.taskSetIdentifier(setName), SwiftLiteral.string(setName), availability, tasks)
    }

    /// `Catalog` → `catalog`, `my-shop` → `myShop`; a leading digit gets `_`, keywords backticks.
    static func taskSetIdentifier(_ name: String) -> String {
        var identifier = SwiftNaming.lowerCamelCase(name)
        identifier = String(String.UnicodeScalarView(identifier.unicodeScalars.map { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" ? $0 : "_" }))
        if identifier.isEmpty || identifier.unicodeScalars.first!.isASCIIDigit { identifier = "_" + identifier }
        return SwiftNaming.escaped(identifier)
    }

    private func taskModel(_ task: TrackingSpec.FocusTask, spec: TrackingSpec, fileName: String, isLast: Bool) -> RenderModel.TaskModel {
        let source = "\(fileName):\(task.location.line):\(task.location.column)"
        let event = spec.events.first { $0.name == task.report }!
        let ordered = event.parameters.filter { !$0.type.isOptional } + event.parameters.filter(\.type.isOptional)
        var throwsAny = false
        var usesNode = false
        var arguments: [String] = []
        for parameter in ordered {
            guard let expression = task.arguments.first(where: { $0.name == parameter.name })?.expression else { continue }
            let rendered = render(expression, for: parameter, spec: spec)
            throwsAny = throwsAny || rendered.throws
            usesNode = usesNode || rendered.usesNode
            arguments.append("\(SwiftNaming.escaped(parameter.swiftName)): \(rendered.code)")
        }
        let factory = "AnalyticsEvent.\(SwiftNaming.escaped(event.swiftName))"
        let call: String
        if ordered.isEmpty {
            call = factory
        } else {
            call = "\(factory)(\(arguments.joined(separator: ", ")))"
        }
        return RenderModel.TaskModel(
            matchLiteral: SwiftLiteral.string(task.match),
            sourceLiteral: SwiftLiteral.string(source),
            parameterName: usesNode ? "node" : "_",
            body: (throwsAny ? "try " : "") + call,
            separator: isLast ? "" : ","
        )
    }

    /// An expression as Swift for a parameter: the code, whether it throws, whether it reads the node.
    private func render(_ expression: TaskExpression, for parameter: TrackingSpec.Parameter, spec: TrackingSpec) -> (code: String, throws: Bool, usesNode: Bool) {
        if case .literal(let literal) = expression {
            return (self.literal(literal, for: parameter.type, spec: spec), false, false)
        }
        let optional = parameter.type.isOptional
        let (code, throwing) = render(expression, receiver: "node", optionalChain: false, optional: optional, type: parameter.type, spec: spec)
        return (code, throwing, true)
    }

    /// Renders a node-reading expression. In optional mode, a missing ancestor or
    /// index gives `nil`; otherwise it throws a `FocusTaskError`.
    private func render(
        _ expression: TaskExpression, receiver: String, optionalChain: Bool, optional: Bool, type: ValueType, spec: TrackingSpec
    ) -> (String, Bool) {
        let dot = optionalChain ? "?." : "."
        let wantsDouble = type.base == .double && !type.isArray
        switch expression {
        case .path: return ("\(receiver)\(dot)path", false)
        case .name: return ("\(receiver)\(dot)nodeName", false)
        case .visibleDuration: return ("\(receiver)\(dot)visibleDuration", false)
        case .index:
            if optional {
                return ("\(receiver)\(dot)index" + (wantsDouble ? ".map(Double.init)" : ""), false)
            }
            let code = "\(receiver)\(dot)requiredIndex()"
            return (wantsDouble ? "Double(\(code))" : code, true)
        case .eventName: return ("\(receiver)\(dot)requiredLatestEvent().name.rawValue", true)
        case .eventTime: return ("\(receiver)\(dot)requiredLatestEvent().time", true)
        case .value(let keyPath):
            let typeName = swiftTypeName(ValueType(base: type.base, isArray: type.isArray, isOptional: false), spec: spec)
            let method = optional ? "value" : "requiredValue"
            return ("\(receiver)\(dot)\(method)(\(SwiftLiteral.string(keyPath)), as: \(typeName).self)", true)
        case .ancestor(let levels, let inner):
            if optional {
                return render(inner, receiver: "\(receiver)\(dot)ancestor(\(levels))", optionalChain: true, optional: true, type: type, spec: spec)
            }
            let (code, _) = render(inner, receiver: "\(receiver)\(dot)requiredAncestor(\(levels))", optionalChain: false, optional: false, type: type, spec: spec)
            return (code, true)
        case .literal(let value):
            return (literal(value, for: type, spec: spec), false)
        }
    }

    private func literal(_ value: ScalarValue, for type: ValueType, spec: TrackingSpec) -> String {
        switch (type.base, value) {
        case (_, .null): return "nil"
        case (.url, .string(let text)): return "URL(string: \(SwiftLiteral.string(text)))!"
        case (.uuid, .string(let text)): return "UUID(uuidString: \(SwiftLiteral.string(text)))!"
        case (.date, .string(let text)):
            let date = (try? Date(text, strategy: .iso8601)) ?? Date(timeIntervalSince1970: 0)
            return "Date(timeIntervalSince1970: \(date.timeIntervalSince1970))"
        case (.named(let name), .string(let text)):
            let enumType = spec.types.first { $0.name == name }
            let caseName = enumType?.cases.first { $0.rawValue == text }?.swiftName ?? text
            return "\(enumType?.swiftName ?? name).\(SwiftNaming.escaped(caseName))"
        case (_, .string(let text)): return SwiftLiteral.string(text)
        case (_, .int(let number)): return "\(number)"
        case (_, .double(let number)):
            if number.isNaN { return "Double.nan" }
            if number.isInfinite { return number < 0 ? "-Double.infinity" : "Double.infinity" }
            return "\(number)"
        case (_, .bool(let flag)): return flag ? "true" : "false"
        }
    }
}
