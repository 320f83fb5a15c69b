import AnnaRules

/// A tracking spec after validation: every name checked and converted to Swift,
/// every type resolved, every task's expressions type-checked.
public struct TrackingSpec: Sendable, Hashable {
    /// The spec file's path as given.
    public var file: String
    /// The file's name without `.anna.yml`, used to name what the file generates.
    public var baseName: String
    /// `namespace:`, if given.
    public var namespace: String?
    /// The access level of generated declarations.
    public var access: AccessLevel
    /// The provider profiles the spec was checked against.
    public var providers: [ProviderProfile]
    /// Named enum types, in file order.
    public var types: [EnumType]
    /// Events, in file order.
    public var events: [Event]
    /// Tasks, in file order.
    public var tasks: [FocusTask]
}

/// `access:` in a spec.
public enum AccessLevel: String, Sendable, Hashable, CaseIterable {
    /// Generated declarations are `public`, for a module other modules import.
    case `public`
    /// Generated declarations are `internal`, the default.
    case `internal`
}

extension TrackingSpec {
    /// A `String`-backed enum, declared under `types:` or inline with a parameter's `enum:`.
    public struct EnumType: Sendable, Hashable {
        /// The name as written, or the made-up name of an inline enum.
        public var name: String
        /// The Swift type name.
        public var swiftName: String
        /// `description:`.
        public var description: String?
        /// The cases in file order.
        public var cases: [EnumCase]
        /// Where it is declared.
        public var location: SourceLocation
    }

    /// One case of an ``EnumType``.
    public struct EnumCase: Sendable, Hashable {
        /// The value sent to providers.
        public var rawValue: String
        /// The Swift case name.
        public var swiftName: String
    }

    /// An event under `events:`.
    public struct Event: Sendable, Hashable {
        /// The name sent to providers (before their mappers).
        public var name: String
        /// The Swift name of the factory.
        public var swiftName: String
        /// `description:`.
        public var description: String?
        /// `consent:`, `analytics` by default.
        public var consent: String
        /// `deprecated:`: the message, or an empty string for `deprecated: true`.
        public var deprecationMessage: String?
        /// Parameters in file order.
        public var parameters: [Parameter]
        /// Parameters in the generated factory's order: required ones first, then
        /// optional ones (which default to `nil`), each group in file order.
        public var signatureParameters: [Parameter] {
            parameters.filter { !$0.type.isOptional } + parameters.filter(\.type.isOptional)
        }
        /// Where the event's name is written.
        public var location: SourceLocation
    }

    /// A parameter of an event.
    public struct Parameter: Sendable, Hashable {
        /// The key sent to providers.
        public var name: String
        /// The Swift argument name.
        public var swiftName: String
        /// `description:`.
        public var description: String?
        /// The parameter's type.
        public var type: ValueType
        /// The Swift type, with enums resolved to their Swift names: `[CategorySource]?`.
        public var swiftType: String
        /// ``swiftType`` without the optional: what a value of the parameter is.
        public var swiftValueType: String
        /// `min`, `max`, `minLength`, `maxLength`, `pattern`.
        public var constraints: ParameterConstraint
        /// `pii: true`.
        public var isPII: Bool
        /// Where the parameter's name is written.
        public var location: SourceLocation
    }

    /// A task under `tasks:`: when a focus-path event matches, report an event.
    public struct FocusTask: Sendable, Hashable {
        /// `match:` as written.
        public var match: String
        /// The parsed pattern.
        public var pattern: FocusPattern
        /// The event `report:` names, as validated.
        public var event: Event
        /// `with:`, in the order of the event's ``Event/signatureParameters``.
        public var arguments: [TaskArgument]
        /// Where the task starts.
        public var location: SourceLocation
    }

    /// One value of a task's `with:`, resolved to the parameter it fills.
    public struct TaskArgument: Sendable, Hashable {
        /// The parameter.
        public var parameter: Parameter
        /// What fills it.
        public var expression: TaskExpression
    }
}

/// A parameter's type: a scalar or enum, possibly in an array, possibly optional.
public struct ValueType: Sendable, Hashable, CustomStringConvertible {
    /// The element type.
    public enum Base: Sendable, Hashable {
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
    }

    /// The element type.
    public var base: Base
    /// `[T]`.
    public var isArray: Bool
    /// `T?`.
    public var isOptional: Bool

    /// The type as a spec writes it: `string`, `[int]?`, `CategorySource`.
    public var description: String {
        var text: String
        switch base {
        case .named(let name): text = name
        default: text = "\(base)"
        }
        if isArray { text = "[\(text)]" }
        return isOptional ? text + "?" : text
    }
}

/// A value in a task's `with:`.
public indirect enum TaskExpression: Sendable, Hashable {
    /// A literal from the spec, checked against and resolved for the parameter's type.
    case literal(TaskLiteral)
    /// `$path`: the node's path, `a/b/c`.
    case path
    /// `$index`: the node's index among its indexed siblings.
    case index
    /// `$name`: the node's name.
    case name
    /// `$value(keyPath)`: the latest value recorded for a key path.
    case value(String)
    /// `$visibleDuration`: seconds the node has been on screen.
    case visibleDuration
    /// `$event.name`: the recorded event's name.
    case eventName
    /// `$event.time`: when the event was recorded.
    case eventTime
    /// `$parent.…` / `$ancestor(n).…`: the expression evaluated on the node `n` levels up.
    case ancestor(Int, TaskExpression)
}

/// A literal in a task's `with:`, resolved for the parameter it fills.
public enum TaskLiteral: Sendable, Hashable {
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
