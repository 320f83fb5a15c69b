import Foundation
import _AnnaGeneratorCore

/// `anna diff` on spec sources: validates both sides, pairs the specs of two folders,
/// and tells a new provider profile's violations (breaking) from an invalid spec.
package struct SpecComparison {
    /// One side of a comparison: a spec's bytes and the path shown for it.
    package struct Source: Sendable {
        /// The key that pairs it with the other side: its path relative to the folder
        /// compared, or its file name when two files are compared.
        package var key: String
        /// The path shown in messages.
        package var path: String
        /// The contents.
        package var bytes: [UInt8]

        /// A source.
        package init(key: String, path: String, bytes: [UInt8]) {
            self.key = key
            self.path = path
            self.bytes = bytes
        }
    }

    /// What comparing found.
    package struct Result: Sendable {
        /// The changes, in pairing order, each spec's in its order.
        package var changes: [SpecChange] = []
        /// Errors that make a side unusable: a compared spec is invalid.
        package var errors: [Diagnostic] = []
        /// Declared versions lower than the changes require (``SpecVersionCheck``).
        package var versionFindings: [SpecVersionFinding] = []
        /// The smallest bump all the changes together require.
        package var requiredBump: PlanVersion.Bump { changes.map(\.requiredBump).max() ?? .none }
        /// Breaking changes.
        package var breakingCount: Int { changes.filter { $0.kind == .breaking }.count }
        /// Compatible changes.
        package var compatibleCount: Int { changes.filter { $0.kind == .compatible }.count }
    }

    package init() {}

    /// Compares specs paired by key; a spec on one side only was added or removed.
    package func compare(old: [Source], new: [Source]) -> Result {
        var result = Result()
        let oldByKey = Dictionary(old.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let newKeys = Set(new.map(\.key))
        let generator = AnnaGenerator()
        for source in new {
            let before = oldByKey[source.key]
            var oldSpec: TrackingSpec?
            if let before {
                let (spec, diagnostics) = generator.check(before.bytes, file: before.path)
                guard let spec else {
                    result.errors += diagnostics.filter { $0.severity == .error }
                    continue
                }
                oldSpec = spec
            }
            guard let (newSpec, violations) = validateNew(source, oldProviders: Set(oldSpec?.providers.map(\.name) ?? []), into: &result) else {
                continue
            }
            let changes = SpecDiff.changes(from: oldSpec, to: newSpec) + violations
            result.changes += changes
            result.versionFindings += SpecVersionCheck.findings(old: oldSpec, new: newSpec, changes: changes)
        }
        for source in old where !newKeys.contains(source.key) {
            let (spec, diagnostics) = generator.check(source.bytes, file: source.path)
            guard let spec else {
                result.errors += diagnostics.filter { $0.severity == .error }
                continue
            }
            result.changes += SpecDiff.changes(from: spec, to: nil)
        }
        return result
    }

    /// The new spec, and the errors of provider profiles it added as breaking changes;
    /// `nil` when the spec is invalid for another reason (its errors go to `result`).
    private func validateNew(_ source: Source, oldProviders: Set<String>, into result: inout Result) -> (TrackingSpec, [SpecChange])? {
        let generator = AnnaGenerator()
        let (spec, diagnostics) = generator.check(source.bytes, file: source.path)
        if let spec { return (spec, []) }
        // Which profiles does it list? Read it without checking any.
        var unchecked = SpecValidator()
        unchecked.skipsAllProviders = true
        guard let listed = generator.check(source.bytes, file: source.path, validator: unchecked).spec else {
            result.errors += diagnostics.filter { $0.severity == .error }
            return nil
        }
        let added = Set(listed.providers.map(\.name)).subtracting(oldProviders)
        var withoutAdded = SpecValidator()
        withoutAdded.skippedProviders = added
        let (valid, remaining) = generator.check(source.bytes, file: source.path, validator: withoutAdded)
        guard let valid, !added.isEmpty else {
            result.errors += diagnostics.filter { $0.severity == .error }
            return nil
        }
        let remainingSet = Set(remaining)
        let violations = diagnostics.filter { $0.severity == .error && !remainingSet.contains($0) }.map { diagnostic in
            SpecChange(
                .breaking, "provider-limits-violated", "providers", "the added provider profile is violated: \(diagnostic.message)",
                at: diagnostic.location)
        }
        return (valid, violations)
    }
}
