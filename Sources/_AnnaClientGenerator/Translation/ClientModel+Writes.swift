import _AnnaGeneratorCore

extension ClientModel {
    /// What a model's calls use, so a renderer writes only the helpers that are
    /// called (TypeScript's `noUnusedLocals` rejects the others).
    package struct Usage: Sendable, Hashable {
        /// Object types some call sends, directly or inside another object.
        package var objects: Set<Int> = []
        /// A range checked on a number.
        package var numberChecks = false
        /// A length or pattern checked on a string.
        package var textChecks = false
        /// A PII property.
        package var pii = false
        /// A call, trait or global whose payload needs the checking context.
        package var callContext = false

        /// Whether anything reports a violation.
        package var reports: Bool { numberChecks || textChecks || pii }
    }

    /// What the model's events, screens, traits and globals use.
    package var usage: Usage {
        var usage = Usage()
        let roots = events.map(\.properties) + screens.map(\.properties) + [traits, groupTraits, globals]
        usage.callContext = roots.contains { Self.needsContext($0) }
        var pending = roots.flatMap { $0 }
        while let property = pending.popLast() {
            if property.hasRunTimeChecks {
                if property.type == .string { usage.textChecks = true } else { usage.numberChecks = true }
            }
            if property.isPII { usage.pii = true }
            if case .object(let index) = property.type, usage.objects.insert(index).inserted {
                pending += objects[index].properties
            }
        }
        return usage
    }
}
