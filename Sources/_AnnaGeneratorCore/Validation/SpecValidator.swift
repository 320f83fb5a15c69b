import AnnaRules

/// Checks a parsed spec and turns it into a ``TrackingSpec``.
///
/// It reports every problem it can find in one run, each at the node it concerns,
/// and goes on past errors so a user fixes a spec in one round.
package struct SpecValidator: Sendable {
    /// The format version this generator reads.
    package static let formatVersion = 1

    /// Which provider profiles' limits are checked: all of them, or all but some.
    /// `anna diff` checks a new spec without the profiles it added, to tell a spec that
    /// is otherwise valid but breaks a new profile's limits (a breaking change) from an
    /// invalid one.
    package var skippedProviders: Set<String> = []
    /// Whether no provider profile's limits are checked (the profiles are still read).
    package var skipsAllProviders = false

    /// Creates a validator.
    package init() {}

    /// Validates a spec's syntax tree.
    /// - Parameters:
    ///   - root: The document's root node.
    ///   - file: The spec's path, used to name what it generates.
    /// - Returns: The spec, or `nil` when it has errors, and every diagnostic in file order.
    package func validate(_ root: YAMLNode, file: String) -> (spec: TrackingSpec?, diagnostics: [Diagnostic]) {
        var pass = SpecValidationPass(file: file)
        pass.checksProvider = { [skippedProviders, skipsAllProviders] name in
            !skipsAllProviders && !skippedProviders.contains(name)
        }
        let spec = pass.run(root)
        let diagnostics = pass.context.diagnostics.diagnostics.enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
        let hasErrors = diagnostics.contains { $0.severity == .error }
        return (hasErrors ? nil : spec, diagnostics)
    }
}

/// One validation run over one spec.
package struct SpecValidationPass {
    let file: String
    var context = ValidationContext()
    /// Declared and inline enum types by the name parameters refer to them with.
    var types: [String: TrackingSpec.EnumType] = [:]
    var typeOrder: [String] = []
    /// Object types by name, and their names in file order.
    var objects: [String: TrackingSpec.ObjectType] = [:]
    var objectOrder: [String] = []
    /// Types declared under `types:` whose declaration had an error, already reported:
    /// a use of one is not reported again as an unknown type.
    var rejectedTypeNames: Set<String> = []
    /// Swift type names taken, with where, to catch collisions after conversion.
    var swiftTypeNames: [String: SourceLocation] = [:]
    /// Where each provider profile is listed, for `anna diff`.
    var providerLocations: [String: SourceLocation] = [:]

    /// Whether a provider profile's limits are checked.
    var checksProvider: (String) -> Bool = { _ in true }

    init(file: String) { self.file = file }

    static let topLevelKeys = [
        "anna", "version", "namespace", "access", "providers", "types", "events", "screens", "traits", "groupTraits", "globals", "tasks",
    ]
    /// The sections that declare something; a spec needs at least one.
    static let declaringKeys = ["events", "screens", "traits", "groupTraits", "globals", "types", "tasks"]

    mutating func run(_ root: YAMLNode) -> TrackingSpec? {
        guard case .mapping = root.content else {
            context.error("a spec is a mapping that starts with 'anna: 1', not \(root.kindDescription)", at: root.location)
            return nil
        }
        guard let top = context.entries(of: root, allowed: Self.topLevelKeys, in: "the spec") else { return nil }

        checkFormat(top["anna"], root: root)
        var namespace: String?
        if let pair = top["namespace"] { namespace = self.namespace(pair.value) }
        let version = top["version"].flatMap { planVersion($0.value, of: "the plan") }
        var access = AccessLevel.internal
        if let pair = top["access"], let level = accessLevel(pair.value) { access = level }
        var providers: [ProviderProfile] = []
        if let pair = top["providers"] { providers = providerProfiles(pair.value) }
        if let types = top["types"] { declareTypes(types.value) }
        var events: [TrackingSpec.Event] = []
        if let eventsNode = top["events"] { events = self.events(eventsNode.value) }
        if !Self.declaringKeys.contains(where: { top[$0] != nil }) {
            context.error("the spec declares nothing; add the events it tracks (events: {} for none yet), or screens:, traits:, groupTraits: or globals:", at: root.location)
        }
        // Events come first: their inline enums are top-level types, which the nested
        // enums of screens, traits and globals must not hide.
        var screens: [TrackingSpec.Event] = []
        if let pair = top["screens"] { screens = self.events(pair.value, kind: .screen) }
        var traits: [TrackingSpec.Parameter] = []
        if let pair = top["traits"] { traits = properties(pair.value, kind: .trait) }
        var groupTraits: [TrackingSpec.Parameter] = []
        if let pair = top["groupTraits"] { groupTraits = properties(pair.value, kind: .groupTrait) }
        var globals: [TrackingSpec.Parameter] = []
        if let pair = top["globals"] { globals = properties(pair.value, kind: .global) }
        for profile in providers where checksProvider(profile.name) {
            check(events, globals: globals, against: profile)
            check(screens, kind: .screen, globals: globals, against: profile)
            check(properties: traits, kind: .trait, against: profile)
            check(properties: groupTraits, kind: .groupTrait, against: profile)
            check(properties: globals, kind: .global, against: profile)
        }
        var tasks: [TrackingSpec.FocusTask] = []
        if let pair = top["tasks"] { tasks = self.tasks(pair.value, events: events) }

        var spec = TrackingSpec(
            file: file,
            baseName: SpecFileNaming.baseName(of: file),
            namespace: namespace,
            access: access,
            providers: providers,
            types: typeOrder.compactMap { types[$0] },
            objects: objectOrder.compactMap { objects[$0] },
            events: events,
            screens: screens,
            traits: traits,
            groupTraits: groupTraits,
            globals: globals,
            tasks: tasks
        )
        spec.version = version
        spec.versionLocation = top["version"]?.value.location
        spec.keyLocations = top.keyLocations
        spec.providerLocations = providerLocations
        return spec
    }

    /// A `version:` value: `MAJOR.MINOR.PATCH`, reported where it is written otherwise.
    mutating func planVersion(_ node: YAMLNode, of owner: String) -> PlanVersion? {
        let text: String
        switch node.content {
        case .scalar(let written, _): text = written
        default: text = ""
        }
        if let version = PlanVersion(text) { return version }
        context.error("the version of \(owner) must be MAJOR.MINOR.PATCH, e.g. 1.2.0, not \(text.isEmpty ? node.kindDescription : "'\(text)'")", at: node.location)
        return nil
    }

    private mutating func checkFormat(_ pair: YAMLPair?, root: YAMLNode) {
        guard let pair else {
            context.error("the spec does not say its format; add 'anna: 1' as its first line", at: root.location)
            return
        }
        guard case .int(let version) = pair.value.scalarValue else {
            context.error("'anna' must be the format version 1, not \(pair.value.kindDescription)", at: pair.value.location)
            return
        }
        if version != SpecValidator.formatVersion {
            context.error("format \(version) is not supported; this anna reads format \(SpecValidator.formatVersion): write 'anna: 1' or update anna", at: pair.value.location)
        }
    }

    private mutating func namespace(_ node: YAMLNode) -> String? {
        guard let text = context.string(node, expected: "'namespace'") else { return nil }
        guard let first = text.unicodeScalars.first, first.isASCIILetter,
              text.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }) else {
            context.error("namespace '\(text)' is not a Swift identifier; use letters, digits and '_', starting with a letter", at: node.location)
            return nil
        }
        return text
    }

    private mutating func accessLevel(_ node: YAMLNode) -> AccessLevel? {
        guard let text = context.string(node, expected: "'access'") else { return nil }
        guard let level = AccessLevel(rawValue: text) else {
            context.error("access '\(text)' is not supported\(Suggestion.hint(for: text, in: AccessLevel.allCases.map(\.rawValue)))", at: node.location)
            return nil
        }
        return level
    }

    private mutating func providerProfiles(_ node: YAMLNode) -> [ProviderProfile] {
        guard let items = context.items(of: node, expected: "'providers'") else { return [] }
        var profiles: [ProviderProfile] = []
        for item in items {
            guard let name = context.string(item, expected: "a provider") else { continue }
            if providerLocations[name] == nil { providerLocations[name] = item.location }
            guard let profile = ProviderProfile.all[name] else {
                context.error("unknown provider '\(name)'\(Suggestion.hint(for: name, in: ProviderProfile.all.keys.sorted()))", at: item.location)
                continue
            }
            if profiles.contains(profile) {
                context.error("provider '\(name)' is listed twice; remove one", at: item.location)
                continue
            }
            profiles.append(profile)
        }
        return profiles
    }
}
