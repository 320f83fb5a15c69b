import AnnaRules

/// What a tracking spec declared about one trait or global property.
@_spi(Generated) public struct PropertyMetadata: Sendable, Hashable, Codable {
    /// Whether the value identifies a person. Providers that may not receive PII
    /// get it removed or hashed, as for event parameters.
    public var isPII: Bool
    /// The constraint the spec puts on the value, if any.
    public var constraint: ParameterConstraint?
    /// The constraints the spec puts on the properties of a value of an object type
    /// (and on those of each object of a list), by key path inside the value
    /// (`product id`, `brand/name`).
    public var nestedConstraints: [String: ParameterConstraint]

    /// Creates metadata.
    /// - Parameters:
    ///   - isPII: Whether the value identifies a person.
    ///   - constraint: The constraint on the value.
    ///   - nestedConstraints: The constraints inside a value of an object type, by key path inside it.
    @_spi(Generated) public init(
        isPII: Bool, constraint: ParameterConstraint? = nil, nestedConstraints: [String: ParameterConstraint] = [:]
    ) {
        self.isPII = isPII
        self.constraint = constraint
        self.nestedConstraints = nestedConstraints
    }

    /// Every constraint of a property named `name`, keyed as an event's metadata keys
    /// them: `name` for the value, `name/path` inside it.
    func constraints(named name: String) -> [String: ParameterConstraint] {
        var all: [String: ParameterConstraint] = [:]
        if let constraint { all[name] = constraint }
        for (path, constraint) in nestedConstraints { all[name + AnalyticsKeyPath.separator + path] = constraint }
        return all
    }
}

/// A trait of the user, declared in a spec's `traits:` section and generated as a
/// typed factory: `analytics.identify(userID: id, traits: [.email(address), .plan(.pro)])`.
///
/// Traits are PII unless the spec says `pii: false`.
public struct UserTrait: Sendable, Hashable {
    /// The trait's name as declared in the spec.
    public var name: String
    /// Its value.
    public var value: AnalyticsValue
    /// Whether it is PII, and its constraint.
    @_spi(Generated) public var metadata: PropertyMetadata

    /// Creates a trait; generated code calls this.
    /// - Parameters:
    ///   - name: The trait's name.
    ///   - value: Its value.
    ///   - metadata: PII and constraint; PII by default.
    @_spi(Generated) public init(name: String, value: AnalyticsValue, metadata: PropertyMetadata = PropertyMetadata(isPII: true)) {
        self.name = name
        self.value = value
        self.metadata = metadata
    }
}

/// A trait of a group (an account, a company, a team), declared in a spec's
/// `groupTraits:` section: `analytics.group(groupID: id, traits: [.name(title)])`.
///
/// Group traits are PII unless the spec says `pii: false`.
public struct GroupTrait: Sendable, Hashable {
    /// The trait's name as declared in the spec.
    public var name: String
    /// Its value.
    public var value: AnalyticsValue
    /// Whether it is PII, and its constraint.
    @_spi(Generated) public var metadata: PropertyMetadata

    /// Creates a group trait; generated code calls this.
    /// - Parameters:
    ///   - name: The trait's name.
    ///   - value: Its value.
    ///   - metadata: PII and constraint; PII by default.
    @_spi(Generated) public init(name: String, value: AnalyticsValue, metadata: PropertyMetadata = PropertyMetadata(isPII: true)) {
        self.name = name
        self.value = value
        self.metadata = metadata
    }
}

/// A property every event carries once set, declared in a spec's `globals:` section:
/// `analytics.setGlobal(.plan(.pro))`, `analytics.removeGlobal(.plan)`.
///
/// An event's own parameter of the same name wins over the global. Globals the spec
/// marks `persisted: true` are kept with the identity and set again at the next launch.
public struct AnalyticsGlobal: Sendable, Hashable {
    /// The property's name as declared in the spec.
    public var name: String
    /// Its value.
    public var value: AnalyticsValue
    /// Whether it is PII, and its constraint.
    @_spi(Generated) public var metadata: PropertyMetadata
    /// Whether the value is stored with the identity and restored at launch.
    public var isPersisted: Bool

    /// Creates a global property; generated code calls this.
    /// - Parameters:
    ///   - name: The property's name.
    ///   - value: Its value.
    ///   - metadata: PII and constraint; not PII by default.
    ///   - isPersisted: Whether it survives a restart; `false` by default.
    @_spi(Generated) public init(
        name: String, value: AnalyticsValue, metadata: PropertyMetadata = PropertyMetadata(isPII: false),
        isPersisted: Bool = false
    ) {
        self.name = name
        self.value = value
        self.metadata = metadata
        self.isPersisted = isPersisted
    }

    /// The key of a global property, to remove it: `analytics.removeGlobal(.plan)`.
    /// Generated for each property of a spec's `globals:` section.
    public struct Key: Sendable, Hashable {
        /// The property's name as declared in the spec.
        public var name: String

        /// Creates a key; generated code calls this.
        /// - Parameter name: The property's name.
        @_spi(Generated) public init(_ name: String) {
            self.name = name
        }
    }

    /// This property's key.
    public var key: Key { Key(name) }
}

/// A screen the user saw, declared in a spec's `screens:` section and generated as a
/// typed factory: `analytics.screen(.productDetail(productID: id))`.
///
/// Providers that take Segment's `screen` call receive it as one; the others receive
/// a track event named `Screen Viewed` with the screen's name in `name`
/// (see ``ProviderOptions/receivedKinds``).
public struct AnalyticsScreen: Sendable, Hashable {
    /// The screen's name as declared in the spec (its `name:`, or its key).
    public var name: String
    /// Its properties.
    public var properties: [String: AnalyticsValue]
    /// Consent, PII and constraints of its properties, as for an event.
    public var metadata: AnalyticsEvent.Metadata

    /// Creates a screen; generated code calls this.
    /// - Parameters:
    ///   - name: The screen's name.
    ///   - properties: Its properties.
    ///   - metadata: Consent, PII and constraints.
    @_spi(Generated) public init(name: String, properties: [String: AnalyticsValue] = [:], metadata: AnalyticsEvent.Metadata = .init()) {
        self.name = name
        self.properties = properties
        self.metadata = metadata
    }
}
