import AnnaRules

/// A tracking spec after validation: every name checked and converted to Swift,
/// every type resolved, every task's expressions type-checked.
package struct TrackingSpec: Sendable, Hashable {
    /// The spec file's path as given.
    package var file: String
    /// The file's name without `.anna.yml`, used to name what the file generates.
    package var baseName: String
    /// `namespace:`, if given.
    package var namespace: String?
    /// `version:`: the plan's version, `nil` for an unversioned plan.
    package var version: PlanVersion?
    /// Where the value of `version:` is written, when it is.
    package var versionLocation: SourceLocation?
    /// The access level of generated declarations.
    package var access: AccessLevel
    /// The provider profiles the spec was checked against.
    package var providers: [ProviderProfile]
    /// Named enum types, in file order.
    package var types: [EnumType]
    /// Object types (`types:` entries with `properties:`), in file order.
    package var objects: [ObjectType] = []
    /// Events, in file order.
    package var events: [Event]
    /// Screens under `screens:`, in file order; declared and validated like events.
    package var screens: [Event]
    /// User traits under `traits:`, in file order.
    package var traits: [Parameter]
    /// Group traits under `groupTraits:`, in file order.
    package var groupTraits: [Parameter]
    /// Global properties under `globals:`, in file order.
    package var globals: [Parameter]
    /// Tasks, in file order.
    package var tasks: [FocusTask]
    /// Where each top-level key (`namespace`, `access`, `providers`, `events`…) is written.
    package var keyLocations: [String: SourceLocation] = [:]
    /// Where each provider profile is listed under `providers:`, by its name.
    package var providerLocations: [String: SourceLocation] = [:]
}

/// `access:` in a spec.
package enum AccessLevel: String, Sendable, Hashable, CaseIterable {
    /// Generated declarations are `public`, for a module other modules import.
    case `public`
    /// Generated declarations are `internal`, the default.
    case `internal`
}

extension TrackingSpec {
    /// A `String`-backed enum, declared under `types:` or inline with a parameter's `enum:`.
    package struct EnumType: Sendable, Hashable {
        /// The name as written, or the made-up name of an inline enum.
        package var name: String
        /// The Swift type name, qualified by its ``container``: `UserTrait.LoyaltyTier`.
        package var swiftName: String
        /// The type it is nested in (`UserTrait`, `GroupTrait`, `AnalyticsGlobal`,
        /// `AnalyticsScreen`), or `nil` for a top-level type.
        package var container: String?
        /// `description:`.
        package var description: String?
        /// The cases in file order.
        package var cases: [EnumCase]
        /// Where it is declared.
        package var location: SourceLocation
    }

    /// A struct-like type declared under `types:` with `properties:`: a value of it is
    /// sent as a nested object, and a list of it as a list of objects.
    package struct ObjectType: Sendable, Hashable {
        /// The name as written.
        package var name: String
        /// The Swift struct name.
        package var swiftName: String
        /// `description:`.
        package var description: String?
        /// Its properties in file order, declared like event parameters.
        package var properties: [Parameter]
        /// Properties in the memberwise initializer's order: required ones first, then
        /// optional ones (which default to `nil`), each group in file order.
        package var signatureProperties: [Parameter] {
            properties.requiredFirst
        }
        /// Where it is declared.
        package var location: SourceLocation
    }

    /// One case of an ``EnumType``.
    package struct EnumCase: Sendable, Hashable {
        /// The value sent to providers.
        package var rawValue: String
        /// The Swift case name.
        package var swiftName: String
    }

    /// An event under `events:`, or a screen under `screens:`.
    package struct Event: Sendable, Hashable {
        /// The name sent to providers (before their mappers): the key, or a screen's `name:`.
        package var name: String
        /// The Swift name of the factory.
        package var swiftName: String
        /// `description:`.
        package var description: String?
        /// `consent:`, `analytics` by default.
        package var consent: String
        /// `deprecated:`: the message, or an empty string for `deprecated: true`.
        package var deprecationMessage: String?
        /// Parameters in file order.
        package var parameters: [Parameter]
        /// Parameters in the generated factory's order: required ones first, then
        /// optional ones (which default to `nil`), each group in file order.
        package var signatureParameters: [Parameter] {
            parameters.requiredFirst
        }
        /// Where the event's name is written.
        package var location: SourceLocation
        /// `version:` under the event, as declared; `nil` when it declares none.
        package var declaredVersion: PlanVersion? = nil
        /// Where `version:` is written, when it is.
        package var versionLocation: SourceLocation? = nil
        /// The event's version: as declared, else ``PlanVersion/initial`` (1.0.0).
        package var version: PlanVersion { declaredVersion ?? .initial }
    }

    /// A parameter of an event or screen, a user or group trait, or a global property.
    package struct Parameter: Sendable, Hashable {
        /// The key sent to providers.
        package var name: String
        /// The Swift argument name.
        package var swiftName: String
        /// `description:`.
        package var description: String?
        /// The parameter's type.
        package var type: ValueType
        /// The Swift type, with enums resolved to their Swift names: `[CategorySource]?`.
        package var swiftType: String
        /// ``swiftType`` without the optional: what a value of the parameter is.
        package var swiftValueType: String
        /// `min`, `max`, `minLength`, `maxLength`, `pattern`.
        package var constraints: ParameterConstraint
        /// `pii:`; `false` by default, `true` by default for traits.
        package var isPII: Bool
        /// `persisted: true` on a global property.
        package var isPersisted: Bool = false
        /// `dataType:`: Apple's collected data type the value is, by its short name
        /// (`emailAddress`), for `anna privacy` and the privacy manifest.
        package var dataType: String? = nil
        /// Where the parameter's name is written.
        package var location: SourceLocation
    }

    /// A task under `tasks:`: when a focus-path event matches, report an event.
    package struct FocusTask: Sendable, Hashable {
        /// `match:` as written: one pattern, or several from a list.
        package var match: [String]
        /// The parsed patterns, one per item of ``match``.
        package var patterns: [FocusPattern]
        /// The event `report:` names, as validated.
        package var event: Event
        /// `with:`, in the order of the event's ``Event/signatureParameters``.
        package var arguments: [TaskArgument]
        /// Where the task starts.
        package var location: SourceLocation
    }

    /// One value of a task's `with:`, resolved to the parameter it fills.
    package struct TaskArgument: Sendable, Hashable {
        /// The parameter.
        package var parameter: Parameter
        /// What fills it.
        package var expression: TaskExpression
    }
}

/// A parameter's type: a scalar, enum or object, possibly in an array, possibly optional.
package struct ValueType: Sendable, Hashable, CustomStringConvertible {
    /// The element type.
    package enum Base: Sendable, Hashable {
        /// `string`: `String`.
        case string
        /// `int`: `Int`.
        case int
        /// `double`: `Double`.
        case double
        /// `bool`: `Bool`.
        case bool
        /// `date`: `Date`.
        case date
        /// `url`: `URL`.
        case url
        /// `uuid`: `UUID`.
        case uuid
        /// An enum type, by its name in the spec.
        case named(String)
        /// An object type, by its name in the spec.
        case object(String)
    }

    /// The element type.
    package var base: Base
    /// `[T]`.
    package var isArray: Bool
    /// `T?`.
    package var isOptional: Bool

    /// The type as a spec writes it: `string`, `[int]?`, `CategorySource`.
    package var description: String {
        var text = base.specName
        if isArray { text = "[\(text)]" }
        return isOptional ? text + "?" : text
    }
}

extension ValueType.Base {
    /// The base type as a spec writes it: `string`, `uuid`, `CategorySource`. Spelled
    /// out rather than reflected (`"\(base)"`), which costs a thousand times more.
    package var specName: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .date: "date"
        case .url: "url"
        case .uuid: "uuid"
        case .named(let name), .object(let name): name
        }
    }
}

/// A value in a task's `with:`: a literal, or a `$` expression in the runtime's own
/// form, so the generator and tasks built at run time share one definition of them.
package enum TaskExpression: Sendable, Hashable {
    /// A literal from the spec, checked against and resolved for the parameter's type.
    case literal(TaskLiteral)
    /// `$path`, `$index`, `$parent.name`…: what the task reads from the node it matched.
    case focus(FocusExpression)
}

/// A literal in a task's `with:`, resolved for the parameter it fills.
package enum TaskLiteral: Sendable, Hashable {
    /// `null`, for an optional parameter.
    case null
    /// A string.
    case string(String)
    /// An integer, also for a `double` parameter.
    case int(Int)
    /// A number with a fraction, or not finite.
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// An absolute URL.
    case url(String)
    /// A UUID.
    case uuid(String)
    /// An ISO 8601 date, as seconds since 1970.
    case date(secondsSince1970: Double)
    /// A case of an enum type, by Swift names.
    case enumCase(type: String, case: String)
}

extension [TrackingSpec.Parameter] {
    /// The required ones, then the optional ones, each in declaration order: the
    /// array itself, without a copy, when it is already so ordered, as it usually is.
    var requiredFirst: [TrackingSpec.Parameter] {
        guard !isRequiredFirst else { return self }
        var ordered: [TrackingSpec.Parameter] = []
        ordered.reserveCapacity(count)
        for index in indices where !self[index].type.isOptional { ordered.append(self[index]) }
        for index in indices where self[index].type.isOptional { ordered.append(self[index]) }
        return ordered
    }

    /// Whether no required one follows an optional one.
    var isRequiredFirst: Bool {
        guard let firstOptional = firstIndex(where: \.type.isOptional) else { return true }
        return !self[firstOptional...].contains { !$0.type.isOptional }
    }
}
