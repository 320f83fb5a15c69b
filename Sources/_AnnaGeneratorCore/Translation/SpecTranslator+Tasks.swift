import AnnaRules

/// The `TaskSet` a spec's `tasks:` become: one `FocusTask` per task, whose closure
/// reads the node with the expressions of `with:` and calls the event's factory.
extension SpecTranslator {
    func taskSetModel(_ spec: TrackingSpec, fileName: String) -> (name: String, nameLiteral: String, availability: String?, tasks: [RenderModel.TaskModel]) {
        let setName = spec.namespace ?? spec.baseName
        let tasks = spec.tasks.enumerated().map { position, task in
            taskModel(task, fileName: fileName, isLast: position == spec.tasks.count - 1)
        }
        let deprecated = Set(spec.tasks.filter { $0.event.deprecationMessage != nil }.map(\.event.name)).sorted()
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

    private func taskModel(_ task: TrackingSpec.FocusTask, fileName: String, isLast: Bool) -> RenderModel.TaskModel {
        let source = "\(fileName):\(task.location.line):\(task.location.column)"
        var throwsAny = false
        var usesNode = false
        var arguments: [String] = []
        for argument in task.arguments {
            let rendered = render(argument.expression, for: argument.parameter)
            throwsAny = throwsAny || rendered.throws
            usesNode = usesNode || rendered.usesNode
            arguments.append("\(SwiftLiteral.argumentLabel(argument.parameter.swiftName)): \(rendered.code)")
        }
        let factory = "AnalyticsEvent.\(SwiftNaming.escaped(task.event.swiftName))"
        let call: String
        if task.event.parameters.isEmpty {
            call = factory
        } else {
            call = "\(factory)(\(arguments.joined(separator: ", ")))"
        }
        return RenderModel.TaskModel(
            matchLiteral: task.match.count == 1
                ? SwiftLiteral.string(task.match[0])
                : "[" + task.match.map(SwiftLiteral.string).joined(separator: ", ") + "]",
            sourceLiteral: SwiftLiteral.string(source),
            parameterName: usesNode ? "node" : "_",
            body: (throwsAny ? "try " : "") + call,
            separator: isLast ? "" : ","
        )
    }

    /// An expression as Swift for a parameter: the code, whether it throws, whether it reads the node.
    private func render(_ expression: TaskExpression, for parameter: TrackingSpec.Parameter) -> (code: String, throws: Bool, usesNode: Bool) {
        switch expression {
        case .literal(let literal):
            return (Self.code(for: literal), false, false)
        case .focus(let expression):
            let optional = parameter.type.isOptional
            let (code, throwing) = render(expression, receiver: "node", optionalChain: false, optional: optional, parameter: parameter)
            return (code, throwing, true)
        }
    }

    /// Renders a node-reading expression. In optional mode, a missing ancestor or
    /// index gives `nil`; otherwise it throws a `TaskError`.
    private func render(
        _ expression: FocusExpression, receiver: String, optionalChain: Bool, optional: Bool, parameter: TrackingSpec.Parameter
    ) -> (String, Bool) {
        let type = parameter.type
        let dot = optionalChain ? "?." : "."
        let wantsDouble = type.base == .double && !type.isArray
        switch expression {
        case .path: return ("\(receiver)\(dot)path", false)
        case .name: return ("\(receiver)\(dot)nodeName", false)
        case .visibleDuration: return ("\(receiver)\(dot)visibleDuration", false)
        case .visible: return ("\(receiver)\(dot)isVisible()", false)
        case .section:
            if optional {
                return ("\(receiver)\(dot)section" + (wantsDouble ? ".map(Double.init)" : ""), false)
            }
            let code = "\(receiver)\(dot)requiredSection()"
            return (wantsDouble ? "Double(\(code))" : code, true)
        case .index:
            if optional {
                return ("\(receiver)\(dot)index" + (wantsDouble ? ".map(Double.init)" : ""), false)
            }
            let code = "\(receiver)\(dot)requiredIndex()"
            return (wantsDouble ? "Double(\(code))" : code, true)
        case .eventName: return ("\(receiver)\(dot)requiredLatestEvent().name.rawValue", true)
        case .eventTime: return ("\(receiver)\(dot)requiredLatestEvent().time", true)
        case .value(let keyPath):
            let method = optional ? "value" : "requiredValue"
            return ("\(receiver)\(dot)\(method)(\(SwiftLiteral.string(keyPath)), as: \(parameter.swiftValueType).self)", true)
        case .ancestor(let levels, let inner):
            if optional {
                return render(inner, receiver: "\(receiver)\(dot)ancestor(\(levels))", optionalChain: true, optional: true, parameter: parameter)
            }
            let (code, _) = render(inner, receiver: "\(receiver)\(dot)requiredAncestor(\(levels))", optionalChain: false, optional: false, parameter: parameter)
            return (code, true)
        }
    }

    /// A resolved literal as Swift. The URL and UUID were checked to parse when the spec was validated.
    private static func code(for literal: TaskLiteral) -> String {
        switch literal {
        case .null: return "nil"
        case .url(let text): return "URL(string: \(SwiftLiteral.string(text)))!"
        case .uuid(let text): return "UUID(uuidString: \(SwiftLiteral.string(text)))!"
        case .date(let seconds): return "Date(timeIntervalSince1970: \(seconds))"
        case .enumCase(let type, let name): return "\(type).\(SwiftNaming.escaped(name))"
        case .string(let text): return SwiftLiteral.string(text)
        case .int(let number): return "\(number)"
        case .double(let number):
            if number.isNaN { return "Double.nan" }
            if number.isInfinite { return number < 0 ? "-Double.infinity" : "Double.infinity" }
            return "\(number)"
        case .bool(let flag): return flag ? "true" : "false"
        }
    }
}
