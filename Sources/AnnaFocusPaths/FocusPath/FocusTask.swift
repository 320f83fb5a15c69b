/// A task: one or more patterns and the closure that digs an event out of the node
/// they matched (Anna's `match`). A task that returns `nil` reports nothing. An event
/// that matches several of a task's patterns runs it once.
public struct FocusTask: Sendable {
    /// What the closure does with a matching node.
    package typealias Action = @Sendable (Node) throws -> AnalyticsEvent?

    /// The first pattern the node and event must match.
    package var pattern: FocusPattern { patterns[0] }
    /// The patterns, in declaration order; the task runs when any matches. Never empty.
    package let patterns: [FocusPattern]
    /// Where the task was declared, e.g. `shop.anna.yml:40:5`, for errors and snapshots.
    public let source: String?
    /// The closure.
    package let action: Action

    /// Creates a task from a parsed pattern.
    package init(pattern: FocusPattern, source: String? = nil, action: @escaping Action) {
        self.patterns = [pattern]
        self.source = source
        self.action = action
    }

    /// Creates a task from parsed patterns (at least one).
    package init(patterns: [FocusPattern], source: String? = nil, action: @escaping Action) {
        precondition(!patterns.isEmpty, "a task needs at least one pattern")
        self.patterns = patterns
        self.source = source
        self.action = action
    }

    /// Creates a task from a pattern's text.
    /// - Throws: `FocusPattern.SyntaxError` when the text is not a pattern.
    public init(match: String, source: String? = nil, action: @escaping @Sendable (Node) throws -> AnalyticsEvent?) throws(FocusPattern.SyntaxError) {
        self.init(pattern: try FocusPattern(match), source: source, action: action)
    }

    /// Creates a task that runs when any of several patterns matches (the seed's
    /// `match([p1, p2], fn)`).
    ///
    /// ```swift
    /// try FocusTask(match: ["master/tableView/cell/did-select", "search/results/cell/did-select"]) { node in
    ///     .itemOpened(row: try node.requiredIndex())
    /// }
    /// ```
    /// - Throws: `FocusPattern.SyntaxError` for the first text that is not a pattern,
    ///   or when the list is empty.
    public init(match: [String], source: String? = nil, action: @escaping @Sendable (Node) throws -> AnalyticsEvent?) throws(FocusPattern.SyntaxError) {
        guard !match.isEmpty else {
            throw FocusPattern.SyntaxError(message: "a task needs at least one pattern")
        }
        var patterns: [FocusPattern] = []
        for text in match { patterns.append(try FocusPattern(text)) }
        self.patterns = patterns
        self.source = source
        self.action = action
    }

    /// `'cell/did-select' (shop.anna.yml:40:5)`; patterns separated by `, `.
    var label: String {
        patterns.map { "'\($0)'" }.joined(separator: ", ") + (source.map { " (\($0))" } ?? "")
    }
}
