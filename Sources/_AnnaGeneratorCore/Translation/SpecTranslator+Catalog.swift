import AnnaRules

/// The event catalog (`EventCatalog.<name>`: every event's parameters and types, and
/// a checked factory through the typed ones) and the spec's tasks as data
/// (`TaskDescription.<name>`), for tasks built at run time.
extension SpecTranslator {
    /// The catalog's model, or `nil` for a spec without events.
    func catalogModel(_ spec: TrackingSpec, fileName: String) -> RenderModel.CatalogModel? {
        guard !spec.events.isEmpty else { return nil }
        let setName = spec.namespace ?? spec.baseName
        return RenderModel.CatalogModel(
            fileName: SwiftLiteral.commentLines(fileName).joined(separator: " "),
            access: spec.access == .public ? "public " : "",
            identifier: Self.taskSetIdentifier(setName),
            nameLiteral: SwiftLiteral.string(setName),
            fingerprintLiteral: SwiftLiteral.string(spec.catalogFingerprint),
            specPathLiteral: SwiftLiteral.string(spec.file),
            events: spec.catalogEvents.map { catalogEventModel($0, spec: spec) },
            tasks: spec.tasks.map { task in
                RenderModel.TaskDescriptionModel(
                    matchLiterals: task.match.map(SwiftLiteral.string),
                    reportLiteral: SwiftLiteral.string(task.event.name),
                    withEntries: task.arguments.map { "\(SwiftLiteral.string($0.parameter.name)): \(Self.code(for: spec.taskValue($0.expression)))" },
                    sourceLiteral: SwiftLiteral.string("\(fileName):\(task.location.line):\(task.location.column)")
                )
            }
        )
    }

    private func catalogEventModel(_ event: TrackingSpec.Event, spec: TrackingSpec) -> RenderModel.CatalogEventModel {
        RenderModel.CatalogEventModel(
            nameLiteral: SwiftLiteral.string(event.name),
            descriptors: event.parameters.map { descriptor($0, spec: spec) },
            factory: String.concatenating("AnalyticsEvent.", SwiftNaming.escaped(event.swiftName)),
            arguments: event.parameters.isEmpty ? [] : event.signatureParameters.map { parameter in
                let method = parameter.type.isOptional ? "optional" : "required"
                return String.concatenating(
                    SwiftLiteral.argumentLabel(parameter.swiftName), ": try arguments.", method, "(", SwiftLiteral.string(parameter.name),
                    ", as: ", parameter.swiftValueType, ".self)")
            }
        )
    }

    private func descriptor(_ parameter: TrackingSpec.Parameter, spec: TrackingSpec) -> String {
        let values = spec.enumValues(of: parameter)
        return String.concatenating(
            "ParameterDescriptor(name: ", SwiftLiteral.string(parameter.name), ", type: ", parameter.swiftValueType,
            ".self, kind: .", spec.catalogKind(parameter.type.base),
            parameter.type.isArray ? ", isArray: true" : "", parameter.type.isOptional ? ", isOptional: true" : "",
            values.isEmpty ? "" : String.concatenating(", enumValues: [", values.map(SwiftLiteral.string).joined(separator: ", "), "]"),
            ")")
    }

    /// A `with` value as a `TaskDescription.Value` literal.
    private static func code(for value: TaskValue) -> String {
        switch value {
        case .null: ".null"
        case .string(let text): ".string(\(SwiftLiteral.string(text)))"
        case .int(let number): ".int(\(number))"
        case .double(let number): ".double(\(number))"
        case .bool(let flag): ".bool(\(flag))"
        }
    }
}
