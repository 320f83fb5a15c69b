@_spi(Generated) import Anna
import AnnaRules
import Foundation

/// A task as data: what a spec's `tasks:` entry says, for tasks built at run time
/// (task bundles, hot reload). The same `match`, `report` and `with` as specs, with
/// the same `$` expressions.
///
/// ```json
/// {"match": ["list/cell/did-select"], "report": "itemOpened", "with": {"row": "$index", "list": "recent"}}
/// ```
public struct TaskDescription: Codable, Sendable, Hashable {
    /// The patterns; the task runs when any matches. A single string decodes too.
    public var match: [String]
    /// The event reported, by its name in the catalog.
    public var report: String
    /// The event's parameters: a string starting with `$` is an expression (`$$` for a
    /// literal `$`); other strings, numbers, booleans and `null` are literals.
    public var with: [String: TaskValue]
    /// Where the task comes from, for errors: `shop.anna.yml:40:5`.
    public var source: String?

    /// A literal or an expression's text, as JSON has them (`TaskValue`, shared
    /// with the generator, which writes these values).
    typealias Value = TaskValue

    /// Creates a description.
    @_spi(Generated) public init(match: [String], report: String, with: [String: TaskValue] = [:], source: String? = nil) {
        self.match = match
        self.report = report
        self.with = with
        self.source = source
    }

    enum CodingKeys: String, CodingKey { case match, report, with, source }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let one = try? container.decode(String.self, forKey: .match) {
            match = [one]
        } else {
            match = try container.decode([String].self, forKey: .match)
        }
        report = try container.decode(String.self, forKey: .report)
        with = try container.decodeIfPresent([String: Value].self, forKey: .with) ?? [:]
        source = try container.decodeIfPresent(String.self, forKey: .source)
    }
}

/// Builds tasks from descriptions, checked against an app's compiled event catalog:
/// a task can only report declared events, with values of the declared types.
public enum TaskInterpreter {
    /// One `with` entry, resolved.
    enum Argument: Sendable {
        case omitted
        case literal(AnalyticsValue)
        case expression(FocusExpression, ParameterDescriptor)
    }

    /// A task set named `name` from descriptions.
    /// - Throws: ``TaskError`` listing every problem; nothing is built then.
    public static func taskSet(named name: String, from descriptions: [TaskDescription], catalog: EventCatalog) throws(TaskError) -> TaskSet {
        var problems: [TaskError.Problem] = []
        var tasks: [FocusTask] = []
        for (position, description) in descriptions.enumerated() {
            var found: [(key: String, message: String)] = []
            let task = build(description, catalog: catalog, problems: &found)
            problems += found.map { TaskError.Problem(task: position, source: description.source, message: $0.message, key: $0.key) }
            if let task { tasks.append(task) }
        }
        guard problems.isEmpty else { throw .invalidTasks(problems) }
        return TaskSet(name: name, tasks: tasks)
    }

    private static func build(
        _ description: TaskDescription, catalog: EventCatalog, problems: inout [(key: String, message: String)]
    ) -> FocusTask? {
        var patterns: [FocusPattern] = []
        if description.match.isEmpty { problems.append(("match", "'match' is empty; give a pattern, e.g. list/cell/did-select")) }
        for text in description.match {
            do {
                patterns.append(try FocusPattern(text))
            } catch {
                problems.append(("match", error.message))
            }
        }
        guard let event = catalog.descriptor(named: description.report) else {
            problems.append(("report", "the task reports '\(description.report)', which \(catalog.name) does not declare\(EventCatalog.hint(description.report, in: catalog.events.map(\.name)))"))
            return nil
        }
        var arguments: [(String, Argument)] = []
        for key in description.with.keys.sorted() {
            guard let parameter = event.parameter(named: key) else {
                problems.append(("with.\(key)", "event '\(event.name)' has no parameter '\(key)'\(EventCatalog.hint(key, in: event.parameters.map(\.name)))"))
                continue
            }
            var messages: [String] = []
            let argument = resolve(description.with[key]!, for: parameter, problems: &messages)
            problems += messages.map { ("with.\(key)", $0) }
            guard let argument else { continue }
            arguments.append((key, argument))
        }
        for parameter in event.parameters where !parameter.isOptional && description.with[parameter.name] == nil {
            problems.append(("with", "the task reporting '\(event.name)' gives no value for its required parameter '\(parameter.name)'; add it under 'with'"))
        }
        guard problems.isEmpty, let first = patterns.first else { return nil }
        let name = event.name
        // In the order the generated factory call evaluates them, which decides which
        // error a task with several missing values reports: required parameters first,
        // then optional ones, each in declaration order.
        let order = Dictionary(uniqueKeysWithValues: event.parameters.enumerated().map { ($1.name, ($1.isOptional ? 1 : 0, $0)) })
        let resolved = arguments.sorted { order[$0.0]! < order[$1.0]! }
        return FocusTask(patterns: patterns, source: description.source ?? first.description) { node in
            var values: [String: AnalyticsValue] = [:]
            for (key, argument) in resolved {
                switch argument {
                case .omitted: break
                case .literal(let value): values[key] = value
                case .expression(let expression, let parameter):
                    values[key] = try expression.evaluate(on: node, for: parameter)
                }
            }
            do throws(EventCatalogError) {
                return try catalog.event(named: name, values: values)
            } catch {
                throw TaskError.taskFailed(path: node.path, message: error.message)
            }
        }
    }

    /// A `with` value checked against its parameter: the same rules as the generator's.
    private static func resolve(_ value: TaskDescription.Value, for parameter: ParameterDescriptor, problems: inout [String]) -> Argument? {
        func mismatch(_ what: String) -> Argument? {
            problems.append("\(what) does not fit parameter '\(parameter.name)' of type \(parameter.typeDescription)")
            return nil
        }
        if case .string(let text) = value, text.hasPrefix("$"), !text.hasPrefix("$$") {
            guard let expression = FocusExpression(parsing: text.dropFirst()) else {
                problems.append("'\(text)' is not a task expression; \(FocusExpression.syntaxHelp)")
                return nil
            }
            if let produced = expression.producedKind, !fits(produced, parameter) {
                problems.append("'\(text)' is \(produced == .int ? "an" : "a") \(produced.rawValue); parameter '\(parameter.name)' takes \(parameter.typeDescription)")
                return nil
            }
            return .expression(expression, parameter)
        }
        if case .null = value {
            // null leaves an optional parameter out.
            if parameter.isOptional { return .omitted }
            return mismatch("null")
        }
        if parameter.isArray { return mismatch("a single value") }
        let literal: AnalyticsValue
        switch (parameter.kind, value) {
        case (.string, .string(let text)): literal = .string(unescaped(text))
        case (.enumeration, .string(let text)):
            let raw = unescaped(text)
            guard parameter.enumValues.contains(raw) else {
                problems.append("'\(raw)' is not a value of \(parameter.typeName)\(EventCatalog.hint(raw, in: parameter.enumValues))")
                return nil
            }
            literal = .string(raw)
        case (.url, .string(let text)):
            guard let url = URL(string: text), url.scheme != nil else { return mismatch("'\(text)', which is not an absolute URL,") }
            literal = .url(url)
        case (.uuid, .string(let text)):
            guard let uuid = UUID(uuidString: text) else { return mismatch("'\(text)', which is not a UUID,") }
            literal = .uuid(uuid)
        case (.date, .string(let text)):
            guard let date = try? Date(text, strategy: .iso8601) else { return mismatch("'\(text)', which is not an ISO 8601 date,") }
            literal = .date(date)
        case (.int, .int(let number)): literal = .int(number)
        case (.double, .int(let number)): literal = .double(Double(number))
        case (.double, .double(let number)): literal = .double(number)
        case (.bool, .bool(let flag)): literal = .bool(flag)
        case (_, .string(let text)): return mismatch("the string '\(text)'")
        case (_, .int(let number)): return mismatch("the integer \(number)")
        case (_, .double(let number)): return mismatch("the number \(number)")
        case (_, .bool(let flag)): return mismatch("\(flag)")
        case (_, .null): return mismatch("null")
        }
        guard parameter.accepts(literal) else { return mismatch("the literal") }
        return .literal(literal)
    }

    /// `$$x` is the literal `$x`.
    private static func unescaped(_ text: String) -> String {
        text.hasPrefix("$$") ? String(text.dropFirst()) : text
    }

    /// Whether an expression's kind fills a parameter: the same kind, or an int for a
    /// double; never an array, an enum, a URL or a UUID (only `$value` can).
    static func fits(_ produced: FocusExpression.Kind, _ parameter: ParameterDescriptor) -> Bool {
        guard !parameter.isArray else { return false }
        switch (produced, parameter.kind) {
        case (.string, .string), (.int, .int), (.int, .double), (.double, .double), (.bool, .bool), (.date, .date): return true
        default: return false
        }
    }
}

extension FocusExpression {
    /// The expression's value on a node, with the semantics of the Swift the generator
    /// writes for it: for an optional parameter a missing index, section, ancestor or
    /// value gives `nil`; for a required one it throws.
    /// - Throws: ``TaskError`` naming the node and what is missing or of another type.
    package func evaluate(on node: Node, for parameter: ParameterDescriptor) throws(TaskError) -> AnalyticsValue? {
        let optional = parameter.isOptional
        switch self {
        case .path: return .string(node.path)
        case .name: return .string(node.nodeName)
        case .visibleDuration: return .double(node.visibleDuration)
        case .visible: return .bool(node.isVisible())
        case .section: return optional ? node.section.map(AnalyticsValue.int) : .int(try node.requiredSection())
        case .index: return optional ? node.index.map(AnalyticsValue.int) : .int(try node.requiredIndex())
        case .eventName: return .string(try node.requiredLatestEvent().name.rawValue)
        case .eventTime: return .date(try node.requiredLatestEvent().time)
        case .value(let keyPath):
            guard let raw = node.latestValue(keyPath) else {
                if optional { return nil }
                throw .taskFailed(path: node.path, message: "no value was recorded for '\(keyPath)'")
            }
            guard parameter.accepts(raw) else {
                throw .taskFailed(path: node.path, message: "value '\(keyPath)' is \(raw.typeDescription), not \(parameter.typeName)")
            }
            return raw
        case .ancestor(let levels, let inner):
            if optional {
                guard let ancestor = node.ancestor(levels) else { return nil }
                return try inner.evaluate(on: ancestor, for: parameter)
            }
            return try inner.evaluate(on: try node.requiredAncestor(levels), for: parameter)
        }
    }
}
