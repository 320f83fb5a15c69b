extension RenderModel {
    /// The event catalog and the tasks as data, appended to the generated file
    /// whatever the templates: they are what tasks built at run time are checked
    /// against, not presentation. Every literal already quoted.
    package struct CatalogModel: Sendable {
        /// The spec file's name, comment-safe, for the doc comments.
        package var fileName: String
        /// `public ` or empty.
        package var access: String
        /// The escaped Swift name of `EventCatalog.<name>` and `TaskDescription.<name>`.
        package var identifier: String
        /// The namespace or file name as a literal.
        package var nameLiteral: String
        /// The fingerprint as a literal.
        package var fingerprintLiteral: String
        /// The spec's path as a literal, for debug builds.
        package var specPathLiteral: String
        /// The events a task may report, deprecated ones left out.
        package var events: [CatalogEventModel]
        /// The spec's tasks as `TaskDescription` values; empty when it has none.
        package var tasks: [TaskDescriptionModel]
    }

    /// One event of the catalog.
    package struct CatalogEventModel: Sendable {
        /// The event's wire name as a literal.
        package var nameLiteral: String
        /// `ParameterDescriptor(name: "title", type: String.self, kind: .string)`, one per
        /// parameter in declaration order.
        package var descriptors: [String]
        /// `AnalyticsEvent.categoryAdded`: the factory the catalog's `make` calls.
        package var factory: String
        /// `categoryTitle: try arguments.required("categoryTitle", as: String.self)`, in
        /// the factory's order; empty for an event without parameters.
        package var arguments: [String]
    }

    /// One task as a `TaskDescription`.
    package struct TaskDescriptionModel: Sendable {
        /// The patterns, each a literal.
        package var matchLiterals: [String]
        /// The reported event's name as a literal.
        package var reportLiteral: String
        /// `"id": .string("$path")`: the `with:` entries.
        package var withEntries: [String]
        /// `"shop.anna.yml:40:5"`: where the task is declared.
        package var sourceLiteral: String
    }
}
