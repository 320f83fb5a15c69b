import AnnaRules

/// The event catalog (`EventCatalog.<name>`: every event's parameters and types, and
/// a checked factory through the typed ones) and the spec's tasks as data
/// (`TaskDescription.<name>`), for tasks built at run time.
extension SpecTranslator {
    /// The catalog's model, or `nil` for a spec without events.
    func catalogModel(_ spec: TrackingSpec, fileName: String, specFromOutput: String?) -> RenderModel.CatalogModel? {
        guard !spec.events.isEmpty else { return nil }
        let setName = spec.namespace ?? spec.baseName
        return RenderModel.CatalogModel(
            fileName: SwiftLiteral.commentLines(fileName).joined(separator: " "),
            access: spec.access == .public ? "public " : "",
            identifier: Self.taskSetIdentifier(setName),
            nameLiteral: SwiftLiteral.string(setName),
            fingerprintLiteral: SwiftLiteral.string(spec.catalogFingerprint),
            specPathExpression: specFromOutput.map { "EventCatalog.specPath(\(SwiftLiteral.string($0)), besideGeneratedFile: #filePath)" }
                ?? SwiftLiteral.string(spec.file),
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
        let parameters = event.parameters.map { catalogParameterModel($0, spec: spec) }
        return RenderModel.CatalogEventModel(
            name: event.name,
            factoryName: SwiftNaming.escaped(event.swiftName),
            parameters: parameters,
            arguments: event.parameters.isRequiredFirst ? nil : event.signatureParameters.map { catalogParameterModel($0, spec: spec) }
        )
    }

    private func catalogParameterModel(_ parameter: TrackingSpec.Parameter, spec: TrackingSpec) -> RenderModel.CatalogParameterModel {
        RenderModel.CatalogParameterModel(
            name: parameter.name,
            label: SwiftLiteral.argumentLabel(parameter.swiftName),
            valueType: parameter.swiftValueType,
            kind: spec.catalogKind(parameter.type.base),
            isArray: parameter.type.isArray,
            isOptional: parameter.type.isOptional,
            enumValues: spec.enumValues(of: parameter)
        )
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
