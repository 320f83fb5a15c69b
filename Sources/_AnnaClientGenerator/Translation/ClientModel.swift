import AnnaRules
import _AnnaGeneratorCore

/// What a TypeScript or Kotlin client of a tracking plan needs, whatever the language:
/// translated from the validated ``TrackingSpec`` by ``ClientTranslator``, so every
/// language reads a spec as `anna lint` and the Swift generator do.
///
/// Identifiers are the Swift ones without their backticks (`orderPlaced`,
/// `OrderItem`, `homeAndGarden`): already checked to be unique, ASCII and
/// camel-cased. Each renderer escapes the words its language reserves. Wire names
/// are what the client sends, through the same mapper as the runtime's naming
/// (``WireNaming``).
package struct ClientModel: Sendable, Hashable {
    /// The spec's file name, for the generated header.
    package var specFileName: String
    /// The generated client's type name: the namespace or the spec's base name,
    /// upper-camel-cased, followed by `Analytics` (`ShopAnalytics`).
    package var clientName: String
    /// Enums, declared and inline, in file order.
    package var enums: [Enumeration]
    /// Object types, in file order.
    package var objects: [Object]
    /// Events under `events:`, in file order.
    package var events: [Call]
    /// Screens under `screens:`, in file order.
    package var screens: [Call]
    /// `traits:`: every trait is optional in an `identify` call.
    package var traits: [Property]
    /// `groupTraits:`: every trait is optional in a `group` call.
    package var groupTraits: [Property]
    /// `globals:`: sent with every event and screen once set.
    package var globals: [Property]
    /// `version:` at the top of the spec: the plan every event and screen names in
    /// Segment's `context.plan`, as the Swift factories do; `nil` for an unversioned plan,
    /// whose client is written as before versions existed.
    package var plan: Plan? = nil

    /// A versioned plan's name and version.
    package struct Plan: Sendable, Hashable {
        /// `namespace:`, else the spec's file name without `.anna.yml` (``TrackingSpec/planName``).
        package var name: String
        /// The plan's version, `2.3.0`.
        package var version: String
    }

    /// A closed set of strings.
    package struct Enumeration: Sendable, Hashable {
        /// The type's identifier, flattened for inline enums (`UserTraitLoyaltyTier`).
        package var identifier: String
        package var description: String?
        /// In file order.
        package var cases: [EnumerationCase]
    }

    /// One case of an ``Enumeration``.
    package struct EnumerationCase: Sendable, Hashable {
        package var identifier: String
        /// The value sent.
        package var wire: String
    }

    /// An object type: a record of properties, sent as a nested JSON object.
    package struct Object: Sendable, Hashable {
        package var identifier: String
        package var description: String?
        /// In file order.
        package var properties: [Property]
    }

    /// An event or a screen.
    package struct Call: Sendable, Hashable {
        /// The function's identifier.
        package var identifier: String
        /// The event or screen name sent.
        package var wireName: String
        package var description: String?
        /// `consent:`: the category that must be granted for it to be sent.
        package var consent: String
        /// `deprecated:`'s message, empty for `deprecated: true`; `nil` when not deprecated.
        package var deprecation: String?
        /// In file order.
        package var properties: [Property]
        /// The event's own `version:`, `1.0.0` when it declares none.
        package var version: String = "1.0.0"
        /// Where the spec names it.
        package var location: SourceLocation
    }

    /// A property of an event, screen or object, a trait or a global.
    package struct Property: Sendable, Hashable {
        /// The argument's or field's identifier.
        package var identifier: String
        /// The key sent.
        package var wireName: String
        package var description: String?
        /// What one value is.
        package var type: ClientType
        /// `[T]`.
        package var isArray: Bool
        /// `T?`: left out of the payload when unset.
        package var isOptional: Bool
        /// Checked at run time in development, on each element of a list.
        package var constraints: ParameterConstraint
        /// Left out of the payload unless the app lets PII through.
        package var isPII: Bool
        package var location: SourceLocation
    }

    /// One value's type.
    package enum ClientType: Sendable, Hashable {
        case string, int, double, bool
        /// Sent as ISO 8601 in UTC with milliseconds, as the Swift runtime sends it.
        case date
        /// Sent as the absolute URL's text.
        case url
        /// Sent as the uppercase 8-4-4-4-12 text, as Foundation's `uuidString`.
        case uuid
        /// An enum, by its index in ``ClientModel/enums``.
        case enumeration(Int)
        /// An object type, by its index in ``ClientModel/objects``.
        case object(Int)
    }
}
