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
