/// What the templates render: every name escaped, every literal quoted, every
/// decision made. Templates only place these strings.
package struct RenderModel: Sendable {
    /// The spec file's name, for the header comment (already comment-safe).
    package var sourceFileName: String
    /// Modules to import, in order.
    package var imports: [String]
    /// `public ` or empty.
    package var access: String
    /// Enum types.
    package var enums: [EnumModel]
    /// Object types, as structs.
    package var objects: [ObjectModel] = []
    /// Event factories.
    package var events: [EventModel]
    /// Whether the spec declares any event.
    package var hasEvents: Bool
    /// Metadata constants for events that have any.
    package var metadata: [MetadataModel]
    /// Whether ``metadata`` is non-empty.
    package var hasMetadata: Bool
    /// Whether the spec declares screens, and so an `AnalyticsScreen` extension.
    package var hasScreens: Bool
    /// Enums nested in `AnalyticsScreen`: the inline enums of screen parameters.
    package var screenEnums: [EnumModel]
    /// Screen factories, rendered like events.
    package var screens: [EventModel]
    /// Metadata constants for screens that have any.
    package var screenMetadata: [MetadataModel]
    /// Whether ``screenMetadata`` is non-empty.
    package var hasScreenMetadata: Bool
    /// User traits, group traits and global properties, each a set only when declared.
    package var propertySets: [PropertySetModel]
    /// Whether the spec declares global properties, and so their keys.
    package var hasGlobals: Bool
    /// The keys of the global properties.
    package var globalKeys: [GlobalKeyModel]
    /// Whether the spec declares tasks, and so a `TaskSet`.
    package var hasTasks: Bool
    /// The task set's escaped Swift name: the namespace or file name, lower camel case.
    package var taskSetName: String
    /// The task set's name as a literal.
    package var taskSetNameLiteral: String
    /// `@available(*, deprecated, …)` when a task reports a deprecated event.
    package var taskSetAvailability: String?
    /// The tasks.
    package var tasks: [TaskModel]
    /// The event catalog and the tasks as data, `nil` for a spec without events.
    package var catalog: CatalogModel? = nil

    /// One task of the task set.
    package struct TaskModel: Sendable {
        /// The pattern as a literal, or several as an array literal.
        package var matchLiteral: String
        /// `"shop.anna.yml:40:5"`: where the task is declared.
        package var sourceLiteral: String
        /// `node`, or `_` when the closure does not read the node.
        package var parameterName: String
        /// The closure's expression: the factory call, with `try` when an argument throws.
        package var body: String
        /// `,` between tasks.
        package var separator: String
    }

    /// A `String`-backed enum.
    package struct EnumModel: Sendable {
        /// Doc comment lines, each to follow `///`.
        package var docLines: [String]
        /// The Swift type name, without the type it is nested in.
        package var name: String
        /// Four spaces for an enum nested in an extension, empty for a top-level one.
        package var indent: String
        /// The cases in spec order.
        package var cases: [CaseModel]
    }

    /// A struct generated from an object type.
    package struct ObjectModel: Sendable {
        /// Doc comment lines, each to follow `///`.
        package var docLines: [String]
        /// The escaped Swift type name.
        package var name: String
        /// Stored properties, in the spec's order.
        package var properties: [ObjectPropertyModel]
        /// Doc comment lines of the memberwise initializer, each to follow `///`.
        package var initializerDocLines: [String]
        /// `productID: String,`, `coupon: String? = nil`: each with its separator.
        package var arguments: [String]
        /// `self.productID = productID`.
        package var assignments: [String]
        /// Whether any property is required, so the dictionary starts as a literal.
        package var hasRequiredProperties: Bool
        /// `let` when no optional property is added later, `var` otherwise.
        package var propertiesKeyword: String
        /// `"productID": productID.analyticsValue,`: the literal's entries.
        package var requiredEntries: [String]
        /// `if let coupon { _properties.updateValue(coupon.analyticsValue, forKey: "coupon") }`.
        package var optionalAssignments: [String]
        /// `let productID = _properties.decoded("productID", as: String.self)`: the
        /// conditions of the converting initializer's `guard`, each with its separator.
        package var decodings: [String]
        /// `productID: productID, coupon: coupon`: the memberwise call.
        package var initializerCall: String
        /// `case productID`, `case orderId = "order id"`: the coding keys.
        package var codingKeys: [String]
    }

    /// One stored property of a generated struct.
    package struct ObjectPropertyModel: Sendable {
        /// Doc comment lines, each to follow `///`.
        package var docLines: [String]
        /// `productID: String`.
        package var declaration: String
    }

    /// One enum case: `case manual` or `case creditCard = "credit card"`.
    package struct CaseModel: Sendable {
        /// The whole declaration.
        package var declaration: String
    }

    /// One event factory.
    package struct EventModel: Sendable {
        /// Whether this is the first event, which needs no blank line before it.
        package var isFirst: Bool
        /// Doc comment lines, each to follow `///`.
        package var docLines: [String]
        /// The full `@available(…)` line, if deprecated.
        package var availability: String?
        /// Whether the event has no parameters and so is a static property.
        package var isProperty: Bool
        /// The escaped Swift name.
        package var name: String
        /// The factory's arguments, dictionary entries and optional assignments.
        var memberwise: MemberwiseParts
        /// `categoryTitle: String,`, `price: Double? = nil`: each with the comma
        /// that separates it from the next.
        package var arguments: [String] { memberwise.arguments }
        /// Whether any parameter is required, so the dictionary starts as a literal.
        package var hasRequiredParameters: Bool
        /// `let` when no optional parameter is added later, `var` otherwise.
        package var parametersKeyword: String
        /// `"categoryTitle": categoryTitle.analyticsValue,`: the literal's entries.
        package var requiredEntries: [String] { memberwise.requiredEntries }
        /// `if let price { _parameters.updateValue(price.analyticsValue, forKey: "price") }`.
        package var optionalAssignments: [String] { memberwise.optionalAssignments }
        /// The event's wire name as a literal.
        package var nameLiteral: String
        /// `, metadata: AnnaSpecMetadata.x`, or empty.
        package var metadataArgument: String

        /// A factory whose arguments, entries and assignments are given as text.
        package init(
            isFirst: Bool, docLines: [String], availability: String?, isProperty: Bool, name: String, arguments: [String],
            hasRequiredParameters: Bool, parametersKeyword: String, requiredEntries: [String], optionalAssignments: [String],
            nameLiteral: String, metadataArgument: String
        ) {
            self.init(
                isFirst: isFirst, docLines: docLines, availability: availability, isProperty: isProperty, name: name,
                memberwise: MemberwiseParts(arguments: arguments, requiredEntries: requiredEntries, optionalAssignments: optionalAssignments),
                hasRequiredParameters: hasRequiredParameters, parametersKeyword: parametersKeyword,
                nameLiteral: nameLiteral, metadataArgument: metadataArgument
            )
        }

        /// A factory whose arguments, entries and assignments are spelled from parameters.
        init(
            isFirst: Bool, docLines: [String], availability: String?, isProperty: Bool, name: String, memberwise: MemberwiseParts,
            hasRequiredParameters: Bool, parametersKeyword: String, nameLiteral: String, metadataArgument: String
        ) {
            self.isFirst = isFirst
            self.docLines = docLines
            self.availability = availability
            self.isProperty = isProperty
            self.name = name
            self.memberwise = memberwise
            self.hasRequiredParameters = hasRequiredParameters
            self.parametersKeyword = parametersKeyword
            self.nameLiteral = nameLiteral
            self.metadataArgument = metadataArgument
        }
    }

    /// The factories of one of `UserTrait`, `GroupTrait` and `AnalyticsGlobal`.
    package struct PropertySetModel: Sendable {
        /// The type extended: `UserTrait`.
        package var typeName: String
        /// Enums nested in it: the inline enums of its properties.
        package var enums: [EnumModel]
        /// One factory per property.
        package var properties: [PropertyModel]
    }

    /// One factory of a trait or global property: `static func email(_ value: String) -> UserTrait`.
    package struct PropertyModel: Sendable {
        /// Whether this is the first factory, which needs no blank line before it.
        package var isFirst: Bool
        /// Doc comment lines, each to follow `///`.
        package var docLines: [String]
        /// The escaped Swift name.
        package var name: String
        /// The Swift type of the value.
        package var valueType: String
        /// The expression the factory returns.
        package var initializer: String
    }

    /// One key of a global property: `static let theme = AnalyticsGlobal.Key("theme")`.
    package struct GlobalKeyModel: Sendable {
        /// Doc comment lines, each to follow `///`.
        package var docLines: [String]
        /// The escaped Swift name.
        package var name: String
        /// The property's name as a literal.
        package var nameLiteral: String
    }

    /// One metadata constant.
    package struct MetadataModel: Sendable {
        /// The constant's escaped name: the event's Swift name.
        package var name: String
        /// The `AnalyticsEvent.Metadata(…)` expression.
        package var initializer: String
    }
}
