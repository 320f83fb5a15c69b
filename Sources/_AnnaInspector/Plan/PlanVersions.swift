import _AnnaGeneratorCore

/// Every version of the plans the inspector knows, so that each call is checked
/// against the version it names in `context.plan` (`{"name", "version",
/// "eventVersion"}`, as the generated clients send it).
///
/// A plan is named by its spec's `namespace:`, or its file's base name; a version is
/// the specs of one name that declare one `version:`. The current specs, merged as
/// before versions existed, are ``newest``: what a call that names no version is
/// checked against. Immutable and `Sendable`: built once, read by every connection.
package struct PlanVersions: Sendable {
    /// One version of one plan.
    package struct Version: Sendable {
        /// The plan's name: the specs' `namespace:` or file base name.
        package var planName: String
        package var version: PlanVersion
        /// Its specs, indexed as the inspector checks against them.
        package var plan: InspectionPlan
        /// How reports group its calls: `2.3.0`, or `Shop 2.3.0` when several plans are loaded.
        package var label: String
        /// Whether no loaded version of the same plan is newer.
        package var isNewest: Bool
        /// For an older version, what the newest version changed or removed: a reason
        /// per `event`/`screen` name (kind, a NUL, the name), read by ``superseded(kind:name:)``.
        package var supersededBy: [String: String]

        /// Why the newest version of the plan changed or removed this declaration, if it did.
        package func superseded(kind: String, name: String) -> String? {
            supersededBy.isEmpty ? nil : supersededBy[kind + "\u{0}" + name]
        }
    }

    /// What a call's `context.plan` names, resolved.
    package enum Match: Sendable {
        /// A known version, by its index in ``versions``.
        case known(Int)
        /// A version no loaded spec declares: the name and version the call gave.
        case unknown(name: String?, version: String)
        /// The call names no version.
        case unversioned
    }

    /// The current specs, merged: what a call naming no version is checked against.
    package let newest: InspectionPlan
    /// Every known version, by plan name, oldest first.
    package let versions: [Version]
    /// Plan name, then version text, to an index in ``versions``.
    private let index: [String: [String: Int]]

    /// Whether any loaded spec declares a version: without one, calls are checked as
    /// they were before versions existed, and no finding speaks of versions.
    package var isVersioned: Bool { !versions.isEmpty }

    /// Known versions as a finding lists them: `1.0.0, 2.0.0`.
    package var knownVersions: String { versions.map(\.label).joined(separator: ", ") }

    /// One plan without versions: what ``CallChecker/init(plan:)`` checks against.
    package init(plan: InspectionPlan) {
        newest = plan
        versions = []
        index = [:]
    }

    /// Indexes the current specs and released ones.
    /// - Parameters:
    ///   - current: The specs given as today; those that declare `version:` are one more version.
    ///   - released: Specs of earlier (or other) versions; one that declares no `version:` is ignored.
    ///     Where a plan name and version is given twice, the current specs win, then the first given.
    ///   - naming: How the client names what the specs declare.
    package init(current: [TrackingSpec], released: [TrackingSpec], naming: InspectionPlan.Naming = .spec) {
        newest = InspectionPlan(specs: current, naming: naming)
        var groups: [String: [PlanVersion: [TrackingSpec]]] = [:]
        var fromCurrent: Set<String> = []
        for (spec, isCurrent) in current.map({ ($0, true) }) + released.map({ ($0, false) }) {
            guard let version = spec.version else { continue }
            let name = Self.planName(of: spec)
            let key = name + "\u{0}" + version.description
            if isCurrent { fromCurrent.insert(key) } else if fromCurrent.contains(key) { continue }
            groups[name, default: [:]][version, default: []].append(spec)
        }
        let several = groups.count > 1
        var built: [Version] = []
        var index: [String: [String: Int]] = [:]
        for name in groups.keys.sorted() {
            let byVersion = groups[name] ?? [:]
            let ordered = byVersion.keys.sorted()
            let plans = ordered.map { InspectionPlan(specs: byVersion[$0] ?? [], naming: naming) }
            guard let newestPlan = plans.last, let newestVersion = ordered.last else { continue }
            for (offset, version) in ordered.enumerated() {
                let isNewest = offset == ordered.count - 1
                index[name, default: [:]][version.description] = built.count
                built.append(Version(
                    planName: name, version: version, plan: plans[offset], label: several ? "\(name) \(version)" : version.description,
                    isNewest: isNewest,
                    supersededBy: isNewest ? [:] : Self.changes(from: plans[offset], to: newestPlan, newestVersion: newestVersion)))
            }
        }
        versions = built
        self.index = index
    }

    /// The name a spec's calls carry in `context.plan.name`: its `namespace:`, or its file's base name.
    package static func planName(of spec: TrackingSpec) -> String { spec.namespace ?? spec.baseName }

    /// Resolves a call's `context.plan`. With one plan loaded, its version alone
    /// decides (a renamed file still matches); with several, the name and the version.
    package func match(_ call: JSONValue) -> Match {
        guard case .object(let plan)? = call["context"]?["plan"], let version = plan.first(where: { $0.0 == "version" })?.1.stringValue else {
            return .unversioned
        }
        let name = plan.first(where: { $0.0 == "name" })?.1.stringValue
        if index.count == 1, let only = index.first?.value {
            return only[version].map(Match.known) ?? .unknown(name: name, version: version)
        }
        guard let name, let found = index[name]?[version] else { return .unknown(name: name, version: version) }
        return .known(found)
    }

    /// Each event and screen of `old` that `new` removed or changed, with why.
    private static func changes(from old: InspectionPlan, to new: InspectionPlan, newestVersion: PlanVersion) -> [String: String] {
        var changes: [String: String] = [:]
        for (kind, name) in old.declarationOrder {
            let before = kind == "event" ? old.events[name] : old.screens[name]
            let after = kind == "event" ? new.events[name] : new.screens[name]
            guard let before else { continue }
            guard let after else {
                changes[kind + "\u{0}" + name] = "removed in \(newestVersion)"
                continue
            }
            if signature(of: before.properties, in: old, depth: 0) != signature(of: after.properties, in: new, depth: 0) {
                let bump = before.version == after.version ? "" : " (\(kind) version \(before.version) → \(after.version))"
                changes[kind + "\u{0}" + name] = "changed in \(newestVersion)\(bump)"
            }
        }
        return changes
    }

    /// What a call must be to fit these properties, as text: equal texts, the same rules.
    private static func signature(of properties: [InspectionPlan.PropertyRule], in plan: InspectionPlan, depth: Int) -> String {
        properties.sorted { $0.name < $1.name }.map { rule in
            var text = "\(rule.name):\(rule.typeDescription):\(rule.isPII):\(rule.constraints)"
            switch rule.shape {
            case .enumeration(let index): text += "=" + plan.enums[index].ordered.joined(separator: "|")
            // Object types may nest themselves; a few levels tell any real change.
            case .object(let index) where depth < 4: text += "{" + signature(of: plan.objects[index].properties, in: plan, depth: depth + 1) + "}"
            default: break
            }
            return text
        }.joined(separator: ";")
    }
}
