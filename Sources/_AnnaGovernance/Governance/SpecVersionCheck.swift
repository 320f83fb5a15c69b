import _AnnaGeneratorCore

extension SpecChange {
    /// The smallest version bump the change requires, read as SchemaVer: a change no
    /// row already collected fits is a major (MODEL) bump; one some rows may not fit,
    /// or that changes how rows were gathered, a minor (REVISION) bump; one every row
    /// fits, a patch (ADDITION) bump; documentation, none.
    package var requiredBump: PlanVersion.Bump {
        switch kind {
        case .breaking:
            return Self.revisionRules.contains(rule) ? .minor : .major
        case .compatible:
            if Self.documentationRules.contains(rule) { return .none }
            // An event dropped after its deprecation: rows stay as they were, but
            // calls of the old app are undeclared in the new plan.
            return rule.hasSuffix("-removed-after-deprecation") ? .minor : .patch
        }
    }

    /// Breaking changes that leave the shape of collected rows as it was: tighter
    /// limits, fewer enum values, consent, PII handling, generated code's access.
    static let revisionRules: Set<String> = [
        "constraint-tightened", "pattern-added", "pattern-changed", "enum-value-removed", "consent-changed",
        "pii-removed", "access-narrowed", "provider-limits-violated",
    ]

    /// Compatible changes to what is written about the plan, or to how it is checked,
    /// that no row shows: descriptions, deprecations, provider profiles.
    static let documentationRules: Set<String> = [
        "description-changed", "deprecation-added", "deprecation-removed", "provider-added", "provider-removed",
    ]
}

/// A declared version lower than the changes since the base require: `anna diff` fails
/// at the `version:` it names.
package struct SpecVersionFinding: Sendable, Hashable, Codable {
    /// What is wrong and what to write instead.
    package var message: String
    /// The file of the `version:` (or of the event, when it declares none).
    package var file: String
    /// The line, 1-based.
    package var line: Int
    /// The column, 1-based.
    package var column: Int

    /// Where to fix it.
    package var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }
}

/// The versions a new spec declares, held to the changes since its old version: the
/// plan's `version:` to every change, each event's own `version:` to its changes.
package enum SpecVersionCheck {
    /// What is too low. Nothing when the new spec declares no plan version: a plan
    /// opts in by declaring one. Without an old version (the first versioned release),
    /// the plan's version is not checked; events are checked from 1.0.0.
    package static func findings(old: TrackingSpec?, new: TrackingSpec, changes: [SpecChange]) -> [SpecVersionFinding] {
        guard let newVersion = new.version else { return [] }
        var findings: [SpecVersionFinding] = []
        let versionLocation = new.versionLocation ?? SourceLocation(file: new.file, line: 1, column: 1)
        if let old, let oldVersion = old.version, let worst = changes.max(by: { $0.requiredBump < $1.requiredBump }),
            !newVersion.allows(worst.requiredBump, after: oldVersion)
        {
            findings.append(
                finding(
                    "`\(worst.path.shortPath)` \(worst.summary): \(worst.requiredBump); version \(newVersion) needs at least \(oldVersion.bumped(worst.requiredBump)) (it was \(oldVersion))",
                    at: versionLocation))
        }
        guard let old else { return findings }
        for (section, olds, news) in [("events", old.events, new.events), ("screens", old.screens, new.screens)] {
            let before = Dictionary(olds.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for event in news {
                guard let oldEvent = before[event.name] else { continue }
                let prefix = "\(section).\(event.name)"
                let own = changes.filter { $0.path == prefix || $0.path.hasPrefix(prefix + ".") }
                guard let worst = own.max(by: { $0.requiredBump < $1.requiredBump }),
                    !event.version.allows(worst.requiredBump, after: oldEvent.version)
                else { continue }
                let needed = oldEvent.version.bumped(worst.requiredBump)
                let fix = event.declaredVersion == nil ? " (add version: \(needed) under it)" : ""
                findings.append(
                    finding(
                        "`\(worst.path.shortPath)` \(worst.summary): \(worst.requiredBump); the version of \(section == "events" ? "event" : "screen") '\(event.name)', \(event.version), needs at least \(needed)\(fix)",
                        at: event.versionLocation ?? event.location))
            }
        }
        return findings
    }

    private static func finding(_ message: String, at location: SourceLocation) -> SpecVersionFinding {
        SpecVersionFinding(message: message, file: location.file, line: location.line, column: location.column)
    }

}

extension SpecChange {
    /// What happened, from the rule: "removed", "changed type", "added"…
    fileprivate var summary: String {
        if rule.hasSuffix("-removed") { return "removed" }
        if rule.hasSuffix("-added") { return "added" }
        if rule == "type-changed" { return "changed type" }
        return rule.replacingOccurrences(of: "-", with: " ")
    }
}

extension String {
    /// `events.songPlayed.parameters.quality` → `songPlayed.quality`.
    fileprivate var shortPath: String {
        let parts = split(separator: ".").filter { $0 != "parameters" && $0 != "properties" }
        guard parts.count > 1, ["events", "screens", "traits", "groupTraits", "globals", "types"].contains(String(parts[0])) else {
            return self
        }
        return parts.dropFirst().joined(separator: ".")
    }
}
