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
        /// The event `report:` names.
        public var report: String
        /// `with:`: parameter name to expression, in file order.
        public var arguments: [(name: String, expression: TaskExpression)]
        /// Where the task starts.
        public var location: SourceLocation

        /// Tasks are equal when they match, report and pass the same things at the same place.
        public static func == (lhs: FocusTask, rhs: FocusTask) -> Bool {
            lhs.match == rhs.match && lhs.report == rhs.report && lhs.location == rhs.location
                && lhs.arguments.map(\.name) == rhs.arguments.map(\.name)
                && lhs.arguments.map(\.expression) == rhs.arguments.map(\.expression)
        }

        /// Hashes the pattern, the event and the location.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(match)
            hasher.combine(report)
            hasher.combine(location)
        }
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
    /// A literal from the spec.
    case literal(ScalarValue)
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
