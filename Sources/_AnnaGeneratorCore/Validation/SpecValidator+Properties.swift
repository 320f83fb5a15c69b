import AnnaRules

/// What a parameter-like declaration belongs to: an event's or a screen's
/// parameters, a user trait, a group trait or a global property. Traits and
/// globals are declared like parameters, with their own defaults.
enum ParameterKind: Sendable, Hashable {
    case event
    case screen
    case trait
    case groupTrait
    case global
    /// A property of an object type under `types:`.
    case objectProperty

    /// The section the declaration is written in.
    var section: String {
        switch self {
        case .event: "events"
        case .screen: "screens"
        case .trait: "traits"
        case .groupTrait: "groupTraits"
        case .global: "globals"
        case .objectProperty: "types"
        }
    }

    /// How messages name one: `trait`, `global property`.
    var word: String {
        switch self {
        case .event: "event"
        case .screen: "screen"
        case .trait: "trait"
        case .groupTrait: "group trait"
        case .global: "global property"
        case .objectProperty: "property"
        }
    }

    /// How messages name several.
    var plural: String {
        self == .global ? "global properties" : word + "s"
    }

    /// The type whose static factories the section generates.
    var factoryType: String {
        switch self {
        case .event: "AnalyticsEvent"
        case .screen: "AnalyticsScreen"
        case .trait: "UserTrait"
        case .groupTrait: "GroupTrait"
        case .global: "AnalyticsGlobal"
        case .objectProperty: "AnalyticsValue"
        }
    }

    /// The type inline enums are nested in; `nil` for events and object types, whose
    /// enums are top-level, named after the event or type and the parameter.
    var container: String? {
        self == .event || self == .objectProperty ? nil : factoryType
    }

    /// Traits are set one by one with a value, not declared as a call's parameters.
    var isProperty: Bool {
        switch self {
        case .event, .screen, .objectProperty: false
        case .trait, .groupTrait, .global: true
        }
    }

    /// Traits identify a person more often than not (Segment's and GDPR practice), so
    /// they are PII unless the spec says `pii: false`; parameters and globals are not.
    var isPIIByDefault: Bool {
        self == .trait || self == .groupTrait
    }
}

extension SpecValidationPass {
    /// Factory names Swift does not allow after a dot, even in backticks.
    package static let reservedPropertyNames: Set<String> = ["init", "self", "Self", "Type", "Protocol"]

    /// `traits:`, `groupTraits:` or `globals:`: each entry is declared like an event parameter.
    mutating func properties(_ node: YAMLNode, kind: ParameterKind) -> [TrackingSpec.Parameter] {
        guard let pairs = context.pairs(of: node, expected: "'\(kind.section)'") else { return [] }
        var properties: [TrackingSpec.Parameter] = []
        var swiftNames = NameTable(capacity: pairs.count)
        for pair in pairs {
            guard SwiftNaming.isValidName(pair.key) else {
                context.error("\(kind.word) name '\(pair.key)' cannot become a Swift name; use ASCII letters, digits, spaces, '_', '-' or '.', starting with a letter", at: pair.keyLocation)
                continue
            }
            let swiftName = SwiftNaming.lowerCamelCase(pair.key)
            if Self.reservedPropertyNames.contains(swiftName) {
                context.error("\(kind.word) '\(pair.key)' would be the factory \(kind.factoryType).\(swiftName), which Swift does not allow after a dot; rename it", at: pair.keyLocation)
                continue
            }
            if let (other, location) = swiftNames[swiftName] {
                context.error("\(kind.plural) '\(other)' (line \(location.line), column \(location.column)) and '\(pair.key)' both become '\(swiftName)' in Swift; rename one of them", at: pair.keyLocation)
                continue
            }
            swiftNames.take(swiftName, by: (pair.key, pair.keyLocation))
            let owner = ParameterOwner(parameter: pair.key, event: "", kind: kind)
            if let property = typedParameter(pair, swiftName: swiftName, owner: owner) {
                if !property.isPII, case .object(let type) = property.type.base, let inner = piiPath(in: type) {
                    // A trait or global is PII or not as a whole: its metadata has no paths.
                    context.error("\(owner) holds personal data ('\(inner)' of \(type) is pii) but is not marked pii; add pii: true, so providers that may not receive PII do not get it", at: pair.keyLocation)
                    continue
                }
                properties.append(property)
            }
        }
        return properties
    }

    /// The path of the first PII property inside an object type, nested ones too.
    func piiPath(in type: String, depth: Int = 0) -> String? {
        guard depth < Self.maximumObjectDepth, let object = objects[type] else { return nil }
        for property in object.properties {
            if property.isPII { return property.name }
            if case .object(let inner) = property.type.base, let path = piiPath(in: inner, depth: depth + 1) {
                return property.name + "/" + path
            }
        }
        return nil
    }

    /// Rejects an optional type for a trait or global: one is left out by not setting
    /// it, so there is no nil to send. `true` when the type is usable.
    mutating func acceptsOptionality(of type: ValueType, owner: ParameterOwner, at location: SourceLocation) -> Bool {
        guard type.isOptional, owner.kind.isProperty else { return true }
        var plain = type
        plain.isOptional = false
        context.error("\(owner) cannot be optional ('\(type)'): a \(owner.kind.word) is left out by not setting it, never sent as nil; write '\(plain)'", at: location)
        return false
    }
}
