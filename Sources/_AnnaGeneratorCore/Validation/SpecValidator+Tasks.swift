import AnnaRules
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SpecValidationPass {
    /// `tasks:`: each task's pattern, event and `with:` expressions, type-checked
    /// against the event's parameters.
    mutating func tasks(_ node: YAMLNode, events: [TrackingSpec.Event]) -> [TrackingSpec.FocusTask] {
        guard let items = context.items(of: node, expected: "'tasks'") else { return [] }
        let byName = Dictionary(events.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var tasks: [TrackingSpec.FocusTask] = []
        for item in items {
            guard let fields = context.entries(of: item, allowed: ["match", "report", "with"], in: "a task") else { continue }
            guard let matchField = fields["match"] else {
                context.error("the task has no 'match:'; add the focus path it waits for, e.g. match: list/cell/did-select", at: item.location)
                continue
            }
            guard let reportField = fields["report"] else {
                context.error("the task has no 'report:'; add the event it reports", at: item.location)
                continue
            }
            guard let (match, patterns) = focusPatterns(matchField.value),
                  let report = context.string(reportField.value, expected: "'report'") else { continue }
            guard let event = byName[report] else {
                context.error("the task reports '\(report)', which 'events:' does not declare\(Suggestion.hint(for: report, in: events.map(\.name)))", at: reportField.value.location)
                continue
            }
            if let message = event.deprecationMessage {
                context.warning("the task reports the deprecated event '\(report)'\(message.isEmpty ? "" : ": \(message)")", at: reportField.value.location)
            }
            guard let arguments = taskArguments(fields["with"]?.value, event: event, taskLocation: item.location) else { continue }
            tasks.append(TrackingSpec.FocusTask(match: match, patterns: patterns, event: event, arguments: arguments, location: item.location))
        }
        return tasks
    }

    /// `match:`: one pattern, or a list of them (the task runs when any matches). Every
    /// item is checked, each error at its own line and column.
    private mutating func focusPatterns(_ node: YAMLNode) -> (texts: [String], patterns: [FocusPattern])? {
        guard case .sequence(let items) = node.content else {
            guard let text = context.string(node, expected: "'match'"),
                  let pattern = focusPattern(text, at: node.location) else { return nil }
            return ([text], [pattern])
        }
        guard !items.isEmpty else {
            context.error("'match' is an empty list; give a pattern or a list of patterns, e.g. match: [list/cell/did-select, grid/item/did-select]", at: node.location)
            return nil
        }
        var texts: [String] = []
        var patterns: [FocusPattern] = []
        var valid = true
        for item in items {
            guard let text = context.string(item, expected: "each pattern of 'match'"),
                  let pattern = focusPattern(text, at: item.location) else { valid = false; continue }
            if texts.contains(text) {
                context.warning("the pattern '\(text)' is listed twice in 'match'; remove one", at: item.location)
                continue
            }
            texts.append(text)
            patterns.append(pattern)
        }
        return valid ? (texts, patterns) : nil
    }

    /// `a/b/event`, `/a/*/event`, `a/**/event`: parsed by the runtime's own parser, so
    /// build time and run time accept the same patterns.
    private mutating func focusPattern(_ text: String, at location: SourceLocation) -> FocusPattern? {
        do {
            return try FocusPattern(text)
        } catch {
            context.error(error.message, at: location)
            return nil
        }
    }

    private mutating func taskArguments(
        _ node: YAMLNode?, event: TrackingSpec.Event, taskLocation: SourceLocation
    ) -> [TrackingSpec.TaskArgument]? {
        var given: [String: TaskExpression] = [:]
        var named: Set<String> = []
        var valid = true
        if let node, let pairs = context.pairs(of: node, expected: "'with'") {
            for pair in pairs {
                named.insert(pair.key)
                guard let parameter = event.parameters.first(where: { $0.name == pair.key }) else {
                    let hint = event.parameters.isEmpty ? "; it takes no parameters, so remove 'with:'" : Suggestion.hint(for: pair.key, in: event.parameters.map(\.name))
                    context.error("event '\(event.name)' has no parameter '\(pair.key)'\(hint)", at: pair.keyLocation)
                    valid = false
                    continue
                }
                guard let expression = taskExpression(pair.value, for: parameter) else { valid = false; continue }
                given[pair.key] = expression
            }
        }
        for parameter in event.parameters where !parameter.type.isOptional && !named.contains(parameter.name) {
            context.error("the task reporting '\(event.name)' gives no value for its required parameter '\(parameter.name)'; add it under 'with:'", at: taskLocation)
            valid = false
        }
        guard valid else { return nil }
        return event.signatureParameters.compactMap { parameter in
            given[parameter.name].map { TrackingSpec.TaskArgument(parameter: parameter, expression: $0) }
        }
    }

    /// A `with:` value: a `$` expression or a literal, checked against the parameter's type.
    private mutating func taskExpression(_ node: YAMLNode, for parameter: TrackingSpec.Parameter) -> TaskExpression? {
        guard let scalar = node.scalarValue else {
            context.error("the value for '\(parameter.name)' must be a $ expression or a single value, not \(node.kindDescription)", at: node.location)
            return nil
        }
        if case .string(let text) = scalar, text.hasPrefix("$"), !text.hasPrefix("$$") {
            guard let expression = Self.parseExpression(Substring(text.dropFirst())) else {
                context.error("'\(text)' is not a task expression; \(FocusExpression.syntaxHelp)", at: node.location)
                return nil
            }
            guard let produced = expression.producedType else { return expression }  // $value: checked at run time
            if !Self.fits(produced, parameter.type) {
                context.error("'\(text)' is \(produced.article) \(produced); parameter '\(parameter.name)' takes \(parameter.type)", at: node.location)
                return nil
            }
            return expression
        }
        var literal = scalar
        if case .string(let text) = scalar, text.hasPrefix("$$") { literal = .string(String(text.dropFirst())) }
        return resolveLiteral(literal, for: parameter, at: node.location).map(TaskExpression.literal)
    }

    /// A literal checked against the parameter's type and resolved for it, or `nil` after an error.
    private mutating func resolveLiteral(_ literal: ScalarValue, for parameter: TrackingSpec.Parameter, at location: SourceLocation) -> TaskLiteral? {
        let type = parameter.type
        func mismatch(_ what: String) -> TaskLiteral? {
            context.error("\(what) does not fit parameter '\(parameter.name)' of type \(type)", at: location)
            return nil
        }
        if case .null = literal { return type.isOptional ? .null : mismatch("null") }
        if type.isArray { return mismatch("a single value") }
        switch (type.base, literal) {
        case (.string, .string(let text)): return .string(text)
        case (.int, .int(let value)), (.double, .int(let value)): return .int(value)
        case (.double, .double(let value)): return .double(value)
        case (.bool, .bool(let value)): return .bool(value)
        case (.url, .string(let text)):
            return URL(string: text)?.scheme != nil ? .url(text) : mismatch("'\(text)', which is not an absolute URL,")
        case (.uuid, .string(let text)):
            return UUID(uuidString: text) != nil ? .uuid(text) : mismatch("'\(text)', which is not a UUID,")
        case (.date, .string(let text)):
            guard let date = try? Date(text, strategy: .iso8601) else { return mismatch("'\(text)', which is not an ISO 8601 date,") }
            return .date(secondsSince1970: date.timeIntervalSince1970)
        case (.named(let name), .string(let text)):
            guard let enumType = types[name] else { return nil }
            if let match = enumType.cases.first(where: { $0.rawValue == text }) {
                return .enumCase(type: enumType.swiftName, case: match.swiftName)
            }
            context.error("'\(text)' is not a value of \(name)\(Suggestion.hint(for: text, in: enumType.cases.map(\.rawValue)))", at: location)
            return nil
        case (_, .string(let text)): return mismatch("the string '\(text)'")
        case (_, .int(let value)): return mismatch("the integer \(value)")
        case (_, .double(let value)): return mismatch("the number \(value)")
        case (_, .bool(let value)): return mismatch("\(value)")
        case (_, .null): return mismatch("null")
        }
    }

    /// Parses what follows `$` with the runtime's parser (``FocusExpression``), so the
    /// generated tasks and the tasks built at run time accept the same expressions.
    static func parseExpression(_ text: Substring) -> TaskExpression? {
        FocusExpression(parsing: text).map(TaskExpression.focus)
    }

    static func fits(_ produced: ValueType.Base, _ type: ValueType) -> Bool {
        guard !type.isArray else { return false }
        return produced == type.base || (produced == .int && type.base == .double)
    }
}

extension TaskExpression {
    /// What the expression yields, or `nil` for `$value(…)`, whose type is known at run
    /// time only, and for literals.
    var producedType: ValueType.Base? {
        guard case .focus(let expression) = self, let kind = expression.producedKind else { return nil }
        switch kind {
        case .string: return .string
        case .int: return .int
        case .double: return .double
        case .bool: return .bool
        case .date: return .date
        }
    }
}

extension ValueType.Base {
    var article: String {
        switch self {
        case .int: "an"
        default: "a"
        }
    }
}
