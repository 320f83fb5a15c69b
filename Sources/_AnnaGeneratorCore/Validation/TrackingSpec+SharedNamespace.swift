extension TrackingSpec {
    /// The declarations of specs of one target that would collide in the generated
    /// Swift: the specs of a target share one Swift namespace, so two that declare the
    /// same type, event, screen, trait or global would fail the build with Swift's
    /// "invalid redeclaration" in generated code. Each collision is an error at the
    /// later declaration that names the first one's file, line and column.
    /// - Parameter specs: Valid specs of one target, in the order given.
    /// - Returns: One error for each declaration made again.
    package static func sharedNamespaceDiagnostics(_ specs: [TrackingSpec]) -> [Diagnostic] {
        var first: [String: SourceLocation] = [:]
        var diagnostics: [Diagnostic] = []
        for spec in specs {
            var declared: [(key: String, subject: String, location: SourceLocation)] = []
            for type in spec.types where type.container == nil {
                declared.append(("type \(type.swiftName)", "type '\(type.name)' (Swift '\(type.swiftName)')", type.location))
            }
            for object in spec.objects {
                declared.append(("type \(object.swiftName)", "type '\(object.name)' (Swift '\(object.swiftName)')", object.location))
            }
            for (events, container, word) in [(spec.events, "AnalyticsEvent", "event"), (spec.screens, "AnalyticsScreen", "screen")] {
                for event in events {
                    declared.append(("\(container).\(event.swiftName)", "\(word) '\(event.name)' (Swift '\(container).\(event.swiftName)')", event.location))
                }
            }
            for (properties, container, word) in [
                (spec.traits, "UserTrait", "trait"), (spec.groupTraits, "GroupTrait", "group trait"),
                (spec.globals, "AnalyticsGlobal", "global property"),
            ] {
                for property in properties {
                    declared.append(("\(container).\(property.swiftName)", "\(word) '\(property.name)' (Swift '\(container).\(property.swiftName)')", property.location))
                }
            }
            var seenHere = Set<String>()
            for declaration in declared where seenHere.insert(declaration.key).inserted {
                guard let earlier = first[declaration.key] else {
                    first[declaration.key] = declaration.location
                    continue
                }
                diagnostics.append(.error(
                    "\(declaration.subject) is declared again; \(earlier.file):\(earlier.line):\(earlier.column) declares it first. The specs of one target share one Swift namespace, so the generated code would not compile (invalid redeclaration); declare it in one spec only, or rename one",
                    at: declaration.location))
            }
        }
        return diagnostics
    }
}
