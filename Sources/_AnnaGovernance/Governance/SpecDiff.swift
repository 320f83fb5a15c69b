import AnnaRules
import _AnnaGeneratorCore

/// One difference between two versions of a tracking spec, classified for review.
package struct SpecChange: Sendable, Hashable, Codable {
    /// Whether the change breaks call sites, stored data or dashboards.
    package enum Kind: String, Sendable, Hashable, Codable {
        /// Code that compiled stops compiling, or data changes meaning or shape.
        case breaking
        /// Additions, loosened limits, documentation.
        case compatible
    }

    /// Breaking or compatible.
    package var kind: Kind
    /// A stable name of the rule that classified it: `parameter-type-changed`.
    package var rule: String
    /// Where in the spec: `events.checkoutStarted.parameters.total`.
    package var path: String
    /// What changed, in a sentence.
    package var message: String
    /// The new spec's file (the old one's for removals).
    package var file: String
    /// The line, 1-based.
    package var line: Int
    /// The column, 1-based.
    package var column: Int
    /// For a change placed in the old spec (a removal): where a code review can show
    /// it in the new one, the line of the removed item's parent (its event, its
    /// section, the spec's first line). `nil` when the change is in the new spec.
    package var reviewLocation: SourceLocation?

    enum CodingKeys: String, CodingKey { case kind, rule, path, message, file, line, column }

    init(
        _ kind: Kind, _ rule: String, _ path: String, _ message: String, at location: SourceLocation,
        review: SourceLocation? = nil
    ) {
        self.kind = kind
        self.rule = rule
        self.path = path
        self.message = message
        file = location.file
        line = location.line
        column = location.column
        reviewLocation = review
    }

    /// Where the change is.
    package var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }
}

/// Compares two validated versions of a spec: what `anna diff` reports.
package struct SpecDiff {
    private let old: TrackingSpec
    private let new: TrackingSpec
    /// Where whole-spec changes are placed: the new spec's first line.
    private let newTop: SourceLocation
    private var changes: [SpecChange] = []

    /// Every change from `old` to `new`, in the new spec's order (removals at the
    /// place they had in the old one).
    package static func changes(from old: TrackingSpec, to new: TrackingSpec) -> [SpecChange] {
        var diff = SpecDiff(old: old, new: new, newTop: SourceLocation(file: new.file, line: 1, column: 1))
        diff.compareEvents(old.events, new.events, section: "events", word: "event")
        diff.compareEvents(old.screens, new.screens, section: "screens", word: "screen")
        diff.compareProperties(old.traits, new.traits, section: "traits", word: "trait")
        diff.compareProperties(old.groupTraits, new.groupTraits, section: "groupTraits", word: "group trait")
        diff.compareProperties(old.globals, new.globals, section: "globals", word: "global property")
        diff.compareTypes()
        diff.compareSpecLevel()
        return diff.changes
    }

    /// Every change when a spec was added (`old` is `nil`) or removed (`new` is `nil`).
    package static func changes(from old: TrackingSpec?, to new: TrackingSpec?) -> [SpecChange] {
        switch (old, new) {
        case (let old?, let new?): return changes(from: old, to: new)
        case (nil, let new?): return changes(from: empty(like: new), to: new)
        case (let old?, nil):
            var diff = SpecDiff(old: old, new: empty(like: old), newTop: SourceLocation(file: old.file, line: 1, column: 1))
            diff.compareEvents(old.events, [], section: "events", word: "event")
            diff.compareEvents(old.screens, [], section: "screens", word: "screen")
            diff.compareProperties(old.traits, [], section: "traits", word: "trait")
            diff.compareProperties(old.groupTraits, [], section: "groupTraits", word: "group trait")
            diff.compareProperties(old.globals, [], section: "globals", word: "global property")
            return diff.changes
        case (nil, nil): return []
        }
    }

    /// The spec's header (file, names, access, providers) with nothing declared.
    private static func empty(like spec: TrackingSpec) -> TrackingSpec {
        var empty = spec
        (empty.types, empty.objects, empty.events, empty.screens) = ([], [], [], [])
        (empty.traits, empty.groupTraits, empty.globals, empty.tasks) = ([], [], [], [])
        (empty.keyLocations, empty.providerLocations) = ([:], [:])
        return empty
    }

    private mutating func add(
        _ kind: SpecChange.Kind, _ rule: String, _ path: String, _ message: String, at location: SourceLocation,
        review: SourceLocation? = nil
    ) {
        changes.append(SpecChange(kind, rule, path, message, at: location, review: review))
    }

    /// Where a top-level key is written in the new spec, or its first line.
    private func newKey(_ key: String) -> SourceLocation { new.keyLocations[key] ?? newTop }

    // MARK: Events and screens

    private mutating func compareEvents(_ olds: [TrackingSpec.Event], _ news: [TrackingSpec.Event], section: String, word: String) {
        let oldByName = Dictionary(olds.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newNames = Set(news.map(\.name))
        for event in news {
            let path = "\(section).\(event.name)"
            guard let before = oldByName[event.name] else {
                add(.compatible, "\(word.replacingOccurrences(of: " ", with: "-"))-added", path, "\(word) '\(event.name)' added", at: event.location)
                continue
            }
            compare(before, event, path: path, word: word)
        }
        for event in olds where !newNames.contains(event.name) {
            let path = "\(section).\(event.name)"
            if event.deprecationMessage != nil {
                add(.compatible, "\(word)-removed-after-deprecation", path, "\(word) '\(event.name)' removed; it was deprecated first", at: event.location, review: newKey(section))
            } else {
                add(.breaking, "\(word)-removed", path, "\(word) '\(event.name)' removed without being deprecated first; deprecate it in one release (deprecated: \"…\") and remove it in a later one", at: event.location, review: newKey(section))
            }
        }
    }

    private mutating func compare(_ old: TrackingSpec.Event, _ new: TrackingSpec.Event, path: String, word: String) {
        let subject = "\(word) '\(new.name)'"
        if old.description != new.description {
            add(.compatible, "description-changed", path, "description of \(subject) changed", at: new.location)
        }
        if old.consent != new.consent {
            add(.breaking, "consent-changed", path, "consent category of \(subject) changed from '\(old.consent)' to '\(new.consent)'; events already collected were gathered under the old one", at: new.location)
        }
        switch (old.deprecationMessage, new.deprecationMessage) {
        case (nil, .some): add(.compatible, "deprecation-added", path, "\(subject) deprecated", at: new.location)
        case (.some, nil): add(.compatible, "deprecation-removed", path, "\(subject) no longer deprecated", at: new.location)
        default: break
        }
        compareParameters(old.parameters, new.parameters, path: path + ".parameters", owner: subject, ownerLocation: new.location)
    }

    /// `word` is `parameter`, or `property` for the properties of an object type,
    /// whose call sites are the struct's initializer.
    private mutating func compareParameters(
        _ olds: [TrackingSpec.Parameter], _ news: [TrackingSpec.Parameter], path: String, owner: String,
        ownerLocation: SourceLocation, word: String = "parameter"
    ) {
        let oldByName = Dictionary(olds.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newNames = Set(news.map(\.name))
        let added = news.filter { oldByName[$0.name] == nil }
        for parameter in news {
            let parameterPath = "\(path).\(parameter.name)"
            guard let before = oldByName[parameter.name] else {
                if parameter.type.isOptional {
                    add(.compatible, "\(word)-added", parameterPath, "optional \(word) '\(parameter.name)' added to \(owner)", at: parameter.location)
                } else {
                    add(.breaking, "required-\(word)-added", parameterPath, "required \(word) '\(parameter.name)' added to \(owner); every call site must now pass it (make it optional to keep them compiling)", at: parameter.location)
                }
                continue
            }
            compare(before, parameter, path: parameterPath, subject: "\(word) '\(parameter.name)' of \(owner)")
        }
        for parameter in olds where !newNames.contains(parameter.name) {
            let rename = added.first { $0.type.base == parameter.type.base && $0.type.isArray == parameter.type.isArray }
            let hint = rename.map { "; renamed to '\($0.name)'? Data under the old name stops" } ?? ""
            // At the old spec's line, where it was; a review shows it at the new name's
            // line, or at its owner's.
            add(
                .breaking, "\(word)-removed", "\(path).\(parameter.name)", "\(word) '\(parameter.name)' removed from \(owner)\(hint)",
                at: parameter.location, review: rename?.location ?? ownerLocation)
        }
    }

    private mutating func compare(_ old: TrackingSpec.Parameter, _ new: TrackingSpec.Parameter, path: String, subject: String) {
        let at = new.location
        if old.type.base != new.type.base || old.type.isArray != new.type.isArray {
            add(.breaking, "type-changed", path, "\(subject) changed type from \(old.type) to \(new.type)", at: at)
        } else {
            compareEnumCases(old, new, path: path, subject: subject)
        }
        if old.type.isOptional && !new.type.isOptional {
            add(.breaking, "made-required", path, "\(subject) made required; call sites that leave it out stop compiling", at: at)
        } else if !old.type.isOptional && new.type.isOptional {
            add(.compatible, "made-optional", path, "\(subject) made optional", at: at)
        }
        if old.description != new.description {
            add(.compatible, "description-changed", path, "description of \(subject) changed", at: at)
        }
        if old.isPII && !new.isPII {
            add(.breaking, "pii-removed", path, "\(subject) no longer marked personal data; providers that removed or hashed it now receive it", at: at)
        } else if !old.isPII && new.isPII {
            add(.compatible, "pii-added", path, "\(subject) marked personal data", at: at)
        }
        if old.isPersisted != new.isPersisted {
            add(.compatible, "persistence-changed", path, "\(subject) \(new.isPersisted ? "now persisted" : "no longer persisted")", at: at)
        }
        compareConstraints(old.constraints, new.constraints, path: path, subject: subject, at: at)
    }

    /// An inline enum's values (`enum:` on the parameter); a type declared under
    /// `types:` is compared once, there.
    private mutating func compareEnumCases(_ old: TrackingSpec.Parameter, _ new: TrackingSpec.Parameter, path: String, subject: String) {
        guard case .named(let oldName) = old.type.base, case .named(let newName) = new.type.base,
            old.constraints.allowedValues != nil, new.constraints.allowedValues != nil
        else { return }
        compareCases(of: oldName, newName, path: path, subject: subject, at: new.location)
    }

    /// The types declared under `types:`: every type but the inline enums, those of
    /// object types' properties included (compared at the property, like a parameter's).
    private func declaredTypeNames(_ spec: TrackingSpec) -> Set<String> {
        var inline = Set<String>()
        for parameter in spec.events.flatMap(\.parameters) + spec.screens.flatMap(\.parameters) + spec.traits
            + spec.groupTraits + spec.globals + spec.objects.flatMap(\.properties)
        {
            if case .named(let name) = parameter.type.base, parameter.constraints.allowedValues != nil { inline.insert(name) }
        }
        return Set(spec.types.map(\.name)).subtracting(inline)
    }

    private mutating func compareCases(of oldName: String, _ newName: String, path: String, subject: String, at location: SourceLocation) {
        guard let before = old.types.first(where: { $0.name == oldName }),
            let after = new.types.first(where: { $0.name == newName })
        else { return }
        let newValues = Set(after.cases.map(\.rawValue))
        let oldValues = Set(before.cases.map(\.rawValue))
        for value in before.cases.map(\.rawValue) where !newValues.contains(value) {
            add(.breaking, "enum-value-removed", path, "value '\(value)' removed from \(subject)", at: location)
        }
        for value in after.cases.map(\.rawValue) where !oldValues.contains(value) {
            add(.compatible, "enum-value-added", path, "value '\(value)' added to \(subject)", at: location)
        }
    }

    private mutating func compareConstraints(
        _ old: ParameterConstraint, _ new: ParameterConstraint, path: String, subject: String, at location: SourceLocation
    ) {
        func limit(_ name: String, _ before: Double?, _ after: Double?, tighterWhenLarger: Bool) {
            guard before != after else { return }
            let text = { (value: Double?) in value.map { $0.compactDescription } ?? "none" }
            let tightened: Bool
            switch (before, after) {
            case (nil, .some): tightened = true
            case (.some, nil): tightened = false
            case (let before?, let after?): tightened = tighterWhenLarger ? after > before : after < before
            case (nil, nil): return
            }
            add(
                tightened ? .breaking : .compatible, tightened ? "constraint-tightened" : "constraint-loosened", path,
                "\(name) of \(subject) \(tightened ? "tightened" : "loosened") from \(text(before)) to \(text(after))\(tightened ? "; values valid before are now violations" : "")",
                at: location)
        }
        limit("maxLength", old.maxLength.map(Double.init), new.maxLength.map(Double.init), tighterWhenLarger: false)
        // No minLength is minLength 0: adding `minLength: 0` rejects nothing.
        limit("minLength", Double(old.minLength ?? 0), Double(new.minLength ?? 0), tighterWhenLarger: true)
        limit("min", old.min, new.min, tighterWhenLarger: true)
        limit("max", old.max, new.max, tighterWhenLarger: false)
        switch (old.pattern, new.pattern) {
        case (nil, let pattern?):
            add(.breaking, "pattern-added", path, "pattern '\(pattern)' added to \(subject); values valid before may now be violations", at: location)
        case (let before?, let after?) where before != after:
            add(.breaking, "pattern-changed", path, "pattern of \(subject) changed from '\(before)' to '\(after)'", at: location)
        case (.some, nil):
            add(.compatible, "pattern-removed", path, "pattern of \(subject) removed", at: location)
        default:
            break
        }
    }

    // MARK: Traits and globals

    private mutating func compareProperties(_ olds: [TrackingSpec.Parameter], _ news: [TrackingSpec.Parameter], section: String, word: String) {
        let oldByName = Dictionary(olds.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newNames = Set(news.map(\.name))
        let rule = word.replacingOccurrences(of: " ", with: "-")
        for property in news {
            let path = "\(section).\(property.name)"
            guard let before = oldByName[property.name] else {
                add(.compatible, "\(rule)-added", path, "\(word) '\(property.name)' added", at: property.location)
                continue
            }
            compare(before, property, path: path, subject: "\(word) '\(property.name)'")
        }
        for property in olds where !newNames.contains(property.name) {
            add(.breaking, "\(rule)-removed", "\(section).\(property.name)", "\(word) '\(property.name)' removed", at: property.location, review: newKey(section))
        }
    }

    // MARK: Types and the spec

    private mutating func compareTypes() {
        let oldDeclared = declaredTypeNames(old)
        let newDeclared = declaredTypeNames(new)
        for type in new.types where newDeclared.contains(type.name) {
            guard oldDeclared.contains(type.name) else {
                add(.compatible, "type-added", "types.\(type.name)", "type '\(type.name)' added", at: type.location)
                continue
            }
            compareCases(of: type.name, type.name, path: "types.\(type.name)", subject: "type '\(type.name)'", at: type.location)
        }
        for type in old.types where oldDeclared.contains(type.name) && !newDeclared.contains(type.name) {
            // Its users changed type too, which is reported where they are.
            add(.compatible, "type-removed", "types.\(type.name)", "type '\(type.name)' removed", at: type.location, review: newKey("types"))
        }
        compareObjects()
    }

    /// Object types: a property added, removed, retyped or tightened changes every
    /// parameter of the type, so each is classified as for a parameter, at the property.
    private mutating func compareObjects() {
        let oldByName = Dictionary(old.objects.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newNames = Set(new.objects.map(\.name))
        for object in new.objects {
            let path = "types.\(object.name)"
            guard let before = oldByName[object.name] else {
                add(.compatible, "type-added", path, "type '\(object.name)' added", at: object.location)
                continue
            }
            if before.description != object.description {
                add(.compatible, "description-changed", path, "description of type '\(object.name)' changed", at: object.location)
            }
            compareParameters(
                before.properties, object.properties, path: path + ".properties", owner: "type '\(object.name)'",
                ownerLocation: object.location, word: "property")
        }
        for object in old.objects where !newNames.contains(object.name) {
            // Its users changed type too, which is reported where they are.
            add(.compatible, "type-removed", "types.\(object.name)", "type '\(object.name)' removed", at: object.location, review: newKey("types"))
        }
    }

    /// Spec-level keys: at the key's line in the new spec, or in the old one when the
    /// key was removed (its review location the new spec's first line).
    private mutating func compareSpecLevel() {
        func place(_ key: String) -> (SourceLocation, SourceLocation?) {
            if let location = new.keyLocations[key] { return (location, nil) }
            return (old.keyLocations[key] ?? newTop, old.keyLocations[key] == nil ? nil : newTop)
        }
        if old.namespace != new.namespace {
            let (location, review) = place("namespace")
            add(.breaking, "namespace-changed", "namespace", "namespace changed from \(old.namespace.map { "'\($0)'" } ?? "none") to \(new.namespace.map { "'\($0)'" } ?? "none"); generated names change", at: location, review: review)
        }
        if old.access == .public && new.access != .public {
            let (location, review) = place("access")
            add(.breaking, "access-narrowed", "access", "access changed from public to \(new.access.rawValue); other modules no longer see the generated code", at: location, review: review)
        }
        let oldProviders = Set(old.providers.map(\.name))
        for provider in new.providers where !oldProviders.contains(provider.name) {
            add(.compatible, "provider-added", "providers.\(provider.name)", "provider profile '\(provider.name)' added", at: new.providerLocations[provider.name] ?? newKey("providers"))
        }
        let newProviders = Set(new.providers.map(\.name))
        for provider in old.providers where !newProviders.contains(provider.name) {
            let location = old.providerLocations[provider.name]
            add(
                .compatible, "provider-removed", "providers.\(provider.name)", "provider profile '\(provider.name)' removed",
                at: location ?? newKey("providers"), review: location == nil ? nil : newKey("providers"))
        }
    }
}
