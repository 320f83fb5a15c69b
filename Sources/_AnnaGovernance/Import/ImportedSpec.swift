import _AnnaGeneratorCore
/// A tracking plan read from another tool, in the terms of an Anna spec: what
/// ``SpecYAMLWriter`` writes as `.anna.yml`.
package struct ImportedSpec: Sendable, Hashable {
    /// The plan's name, for the header comment.
    package var planName: String?
    /// `namespace:`, if given.
    package var namespace: String?
    /// `providers:`: the profiles `anna export` listed as `x-anna-providers`.
    package var providers: [String] = []
    /// Object and enum types under `types:`, in order of first use.
    package var types: [ImportedType] = []
    /// `events:`, in the plan's order.
    package var events: [ImportedEvent] = []
    /// `screens:`, in the plan's order.
    package var screens: [ImportedEvent] = []
    /// `traits:`.
    package var traits: [ImportedProperty] = []
    /// `groupTraits:`.
    package var groupTraits: [ImportedProperty] = []
    /// `globals:`: the properties `anna export` marked `x-anna-global` on the events.
    package var globals: [ImportedProperty] = []
}

/// An event or a screen.
package struct ImportedEvent: Sendable, Hashable {
    /// The key under `events:` or `screens:`.
    package var key: String
    /// `name:`, when the name sent differs from the key (screens only: an event's key is its name).
    package var wireName: String?
    /// `description:`.
    package var description: String?
    /// `deprecated:`, a message.
    package var deprecationMessage: String? = nil
    /// `consent:`, when not the default (`analytics`).
    package var consent: String? = nil
    /// `parameters:`, in the plan's order.
    package var parameters: [ImportedProperty]
}

/// A parameter, trait, or property of an object type.
package struct ImportedProperty: Sendable, Hashable {
    /// The key: the name sent, when the plan's name is a valid Anna name.
    package var key: String
    /// `description:`.
    package var description: String?
    /// `type:`.
    package var type: ImportedValueType
    /// `min:`, `max:`.
    package var min: Double?
    /// `max:`.
    package var max: Double?
    /// `minLength:`.
    package var minLength: Int?
    /// `maxLength:`.
    package var maxLength: Int?
    /// `pattern:`.
    package var pattern: String?
    /// An inline `enum:`.
    package var enumValues: [String]?
    /// The enum's `title`, which names its type under `types:` (as `anna export` writes
    /// a named enum); `nil` for an enum inline in the plan.
    package var enumTitle: String? = nil
    /// `pii: true`, from the `x-anna-pii` key `anna export` writes (traits are PII by default).
    package var isPII = false

    /// Whether only the type is written, so the shorthand `key: type` says it all.
    package var isTypeOnly: Bool {
        description == nil && min == nil && max == nil && minLength == nil && maxLength == nil
            && pattern == nil && enumValues == nil && !isPII
    }
}

/// A type as a spec writes it: `string`, `[Product]?`.
package struct ImportedValueType: Sendable, Hashable, CustomStringConvertible {
    /// `string`, `int`, `double`, `bool`, `date`, `url`, `uuid`, or a name under `types:`.
    package var base: String
    /// `[T]`.
    package var isArray = false
    /// `T?`.
    package var isOptional = false

    /// The spelling in a spec.
    package var description: String {
        let element = isArray ? "[\(base)]" : base
        return isOptional ? element + "?" : element
    }
}

/// A type under `types:`: an object type with properties, or an enum.
package struct ImportedType: Sendable, Hashable {
    /// What the type is.
    package enum Body: Sendable, Hashable {
        /// `properties:`.
        case object([ImportedProperty])
        /// `enum:`.
        case enumeration([String])
    }

    /// The key under `types:`, already in UpperCamelCase.
    package var name: String
    /// `description:`.
    package var description: String?
    /// The properties or cases.
    package var body: Body
}
