import AnnaRules

/// The event catalog (`EventCatalog.<name>`: every event's parameters and types, and
/// the metadata its typed factory attaches) and the spec's tasks as data
/// (`TaskDescription.<name>`), for tasks built at run time.
extension SpecTranslator {
    /// The catalog's model, or `nil` for a spec without events.
    /// - Parameter metadataNames: The events that have a metadata constant, by their
    ///   escaped Swift names.
    /// - Parameter screenMetadataNames: The screens that have a metadata constant.
    func catalogModel(
        _ spec: TrackingSpec, fileName: String, specFromOutput: String?, metadataNames: Set<String>,
        screenMetadataNames: Set<String> = []
    ) -> RenderModel.CatalogModel? {
        guard !spec.events.isEmpty else { return nil }
        let setName = spec.namespace ?? spec.baseName
        let events = spec.catalogEvents.map { catalogEventModel($0, spec: spec, metadataNames: metadataNames) }
        return RenderModel.CatalogModel(
            fileName: SwiftLiteral.commentLines(fileName).joined(separator: " "),
            access: spec.access == .public ? "public " : "",
            identifier: Self.taskSetIdentifier(setName),
            nameLiteral: SwiftLiteral.string(setName),
            fingerprintLiteral: SwiftLiteral.string(spec.catalogFingerprint),
            specPathExpression: specFromOutput.map { "EventCatalog.specPath(\(SwiftLiteral.string($0)), besideGeneratedFile: #filePath)" }
                ?? SwiftLiteral.string(spec.file),
            types: Self.catalogTypes(events.flatMap(\.parameters)),
            events: events,
            tasks: spec.tasks.map { task in
                RenderModel.TaskDescriptionModel(
                    matchLiterals: task.match.map(SwiftLiteral.string),
                    reportLiteral: SwiftLiteral.string(task.event.name),
                    withEntries: task.arguments.map { "\(SwiftLiteral.string($0.parameter.name)): \(Self.code(for: spec.taskValue($0.expression)))" },
                    sourceLiteral: SwiftLiteral.string("\(fileName):\(task.location.line):\(task.location.column)")
                )
            },
            calls: callsModel(spec, screenMetadataNames: screenMetadataNames)
        )
    }

    /// Each enum and object type the parameters name, once, in first use.
    private static func catalogTypes(_ parameters: [RenderModel.CatalogParameterModel]) -> [RenderModel.CatalogTypeModel] {
        var seen: Set<String> = []
        var types: [RenderModel.CatalogTypeModel] = []
        for parameter in parameters where parameter.kind == "enumeration" || parameter.kind == "object" {
            let name = parameter.isArray ? String(parameter.valueType.dropFirst().dropLast()) : parameter.valueType
            guard seen.insert(name).inserted else { continue }
            types.append(RenderModel.CatalogTypeModel(swiftName: name, enumValues: parameter.kind == "enumeration" ? parameter.enumValues : nil))
        }
        return types
    }

    /// The screens (deprecated ones left out, as events), the trait and global sets and
    /// the object types' property names; `nil` for a spec with none of them.
    private func callsModel(_ spec: TrackingSpec, screenMetadataNames: Set<String>) -> RenderModel.CatalogCallsModel? {
        let screens = spec.screens.filter { $0.deprecationMessage == nil }.map {
            catalogEventModel($0, spec: spec, metadataNames: screenMetadataNames)
        }
        let objects = Dictionary(uniqueKeysWithValues: spec.objects.map { ($0.name, $0) })
        var propertySets: [RenderModel.CatalogPropertySetModel] = []
        for (field, properties) in [("traits", spec.traits), ("groupTraits", spec.groupTraits), ("globals", spec.globals)] where !properties.isEmpty {
            // Every property may be left out of a call.
            let parameters = properties.map { property in
                var parameter = catalogParameterModel(property, spec: spec)
                parameter.isOptional = true
                return parameter
            }
            let rules = ruleArguments(properties, objects: objects)
            propertySets.append(RenderModel.CatalogPropertySetModel(
                field: field, parameters: parameters,
                metadataInitializer: rules.isEmpty ? nil : "AnalyticsEvent.Metadata(\(rules.joined(separator: ", ")))"))
        }
        var seenProperties: Set<String> = []
        let objectProperties = spec.objects.flatMap { $0.properties.map(\.name) }.filter { seenProperties.insert($0).inserted }
        guard !screens.isEmpty || !propertySets.isEmpty || !objectProperties.isEmpty else { return nil }
        return RenderModel.CatalogCallsModel(
            types: Self.catalogTypes(screens.flatMap(\.parameters) + propertySets.flatMap(\.parameters)),
            screens: screens, propertySets: propertySets, objectProperties: objectProperties)
    }

    private func catalogEventModel(
        _ event: TrackingSpec.Event, spec: TrackingSpec, metadataNames: Set<String>
    ) -> RenderModel.CatalogEventModel {
        let factoryName = SwiftNaming.escaped(event.swiftName)
        return RenderModel.CatalogEventModel(
            name: event.name,
            metadataName: metadataNames.contains(factoryName) ? factoryName : nil,
            parameters: event.parameters.map { catalogParameterModel($0, spec: spec) }
        )
    }

    private func catalogParameterModel(_ parameter: TrackingSpec.Parameter, spec: TrackingSpec) -> RenderModel.CatalogParameterModel {
        RenderModel.CatalogParameterModel(
            name: parameter.name,
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
