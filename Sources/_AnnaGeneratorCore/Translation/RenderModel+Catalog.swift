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
        /// The Swift expression of the spec's path, for debug builds: a literal, or,
        /// when the generated file's place is known, the spec's place relative to it
        /// resolved against `#filePath` (see ``SpecTranslator/translate(_:specFromOutput:)``).
        package var specPathExpression: String
        /// The enum and object types the events' parameters name, each once.
        package var types: [CatalogTypeModel]
        /// The events a task may report, deprecated ones left out.
        package var events: [CatalogEventModel]
        /// The spec's tasks as `TaskDescription` values; empty when it has none.
        package var tasks: [TaskDescriptionModel]
        /// Its screens, traits and globals, and its object types' property names
        /// (`CatalogCalls`); `nil` when it has none.
        package var calls: CatalogCallsModel?
    }

    /// What `AnnaCatalog.calls()` fills in: `CatalogCalls`.
    package struct CatalogCallsModel: Sendable {
        /// The enum and object types the screens, traits and globals name, each once.
        package var types: [CatalogTypeModel]
        /// The screens; each `metadataName` names a constant of `AnnaScreenMetadata`.
        package var screens: [CatalogEventModel]
        /// `traits`, `groupTraits` and `globals`, those the spec declares.
        package var propertySets: [CatalogPropertySetModel]
        /// Every object type's property names, unquoted.
        package var objectProperties: [String]
    }

    /// A set of properties (traits, group traits, globals) as one descriptor of optional
    /// parameters with the metadata of its properties.
    package struct CatalogPropertySetModel: Sendable {
        /// `traits`, `groupTraits` or `globals`: the `CatalogCalls` property.
        package var field: String
        /// Each property as an optional parameter.
        package var parameters: [CatalogParameterModel]
        /// `AnalyticsEvent.Metadata(piiKeys: …, constraints: …)`, or `nil` for none.
        package var metadataInitializer: String?
    }

    /// An enum or object type a catalog's parameters name:
    /// `types.add(CategorySource.self, named: "CategorySource", enumValues: […])`.
    package struct CatalogTypeModel: Sendable {
        /// The Swift type's name, unquoted (a generated type's name needs no escaping
        /// in a literal, but is written as one all the same).
        package var swiftName: String
        /// An enum's raw values, unquoted; `nil` for an object type.
        package var enumValues: [String]?
    }

    /// One event of the catalog. Its names are written as literals when rendered,
    /// straight into the output, rather than quoted into strings of their own here.
    package struct CatalogEventModel: Sendable {
        /// The event's wire name, unquoted.
        package var name: String
        /// The name of the event's constant in `AnnaSpecMetadata`, which its factory
        /// attaches; `nil` when the factory attaches the default metadata.
        package var metadataName: String?
        /// One per parameter in declaration order.
        package var parameters: [CatalogParameterModel]
    }

    /// A parameter of a catalog event: its wire name and its Swift type, written as
    /// two strings (`"title", "String"`, `"tags", "[String]?"`).
    package struct CatalogParameterModel: Sendable {
        /// The wire name, unquoted.
        package var name: String
        /// The Swift type of a value, without the optional mark.
        package var valueType: String
        /// The descriptor kind: `string`, `enumeration`, `object`…
        package var kind: String
        /// Whether the parameter is an array.
        package var isArray: Bool
        /// Whether the parameter is optional.
        package var isOptional: Bool
        /// The raw values of its enum type, unquoted; empty for other types.
        package var enumValues: [String]
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
