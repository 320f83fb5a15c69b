/// What the templates render: every name escaped, every literal quoted, every
/// decision made. Templates only place these strings.
public struct RenderModel: Sendable {
    /// The spec file's name, for the header comment (already comment-safe).
    public var sourceFileName: String
    /// Modules to import, in order.
    public var imports: [String]
    /// `public ` or empty.
    public var access: String
    /// Enum types.
    public var enums: [EnumModel]
    /// Event factories.
    public var events: [EventModel]
    /// Whether the spec declares any event.
    public var hasEvents: Bool
    /// Metadata constants for events that have any.
    public var metadata: [MetadataModel]
    /// Whether ``metadata`` is non-empty.
    public var hasMetadata: Bool
    /// Whether the spec declares tasks, and so a `TaskSet`.
    public var hasTasks: Bool
    /// The task set's escaped Swift name: the namespace or file name, lower camel case.
    public var taskSetName: String
    /// The task set's name as a literal.
    public var taskSetNameLiteral: String
    /// `@available(*, deprecated, …)` when a task reports a deprecated event.
    public var taskSetAvailability: String?
    /// The tasks.
    public var tasks: [TaskModel]

    /// One task of the task set.
    public struct TaskModel: Sendable {
        /// The pattern as a literal.
        public var matchLiteral: String
        /// `"shop.anna.yml:40:5"`: where the task is declared.
        public var sourceLiteral: String
        /// `node`, or `_` when the closure does not read the node.
        public var parameterName: String
        /// The closure's expression: the factory call, with `try` when an argument throws.
        public var body: String
        /// `,` between tasks.
        public var separator: String
    }

    /// A `String`-backed enum.
    public struct EnumModel: Sendable {
        /// Doc comment lines, each to follow `///`.
        public var docLines: [String]
        /// The Swift type name.
        public var name: String
        /// The cases in spec order.
        public var cases: [CaseModel]
    }

    /// One enum case: `case manual` or `case creditCard = "credit card"`.
    public struct CaseModel: Sendable {
        /// The whole declaration.
        public var declaration: String
    }

    /// One event factory.
    public struct EventModel: Sendable {
        /// Whether this is the first event, which needs no blank line before it.
        public var isFirst: Bool
        /// Doc comment lines, each to follow `///`.
        public var docLines: [String]
        /// The full `@available(…)` line, if deprecated.
        public var availability: String?
        /// Whether the event has no parameters and so is a static property.
        public var isProperty: Bool
        /// The escaped Swift name.
        public var name: String
        /// `categoryTitle: String,`, `price: Double? = nil`: each with the comma
        /// that separates it from the next.
        public var arguments: [String]
        /// Whether any parameter is required, so the dictionary starts as a literal.
        public var hasRequiredParameters: Bool
        /// `let` when no optional parameter is added later, `var` otherwise.
        public var parametersKeyword: String
        /// `"categoryTitle": categoryTitle.analyticsValue,`: the literal's entries.
        public var requiredEntries: [String]
        /// `if let price { _parameters.updateValue(price.analyticsValue, forKey: "price") }`.
        public var optionalAssignments: [String]
        /// The event's wire name as a literal.
        public var nameLiteral: String
        /// `, metadata: AnnaSpecMetadata.x`, or empty.
        public var metadataArgument: String
    }

    /// One metadata constant.
    public struct MetadataModel: Sendable {
        /// The constant's escaped name: the event's Swift name.
        public var name: String
        /// The `AnalyticsEvent.Metadata(…)` expression.
        public var initializer: String
    }
}
