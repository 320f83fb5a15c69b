import AnnaRules
/// Turns a validated ``TrackingSpec`` into a ``RenderModel``: names, types,
/// default values, escaping and metadata are decided here, so templates stay
/// logic-less.
package struct SpecTranslator: Sendable {
    /// Creates a translator.
    package init() {}

    /// Builds the render model of a spec.
    /// - Parameters:
    ///   - spec: A validated spec.
    ///   - specFromOutput: The spec's path relative to the folder of the generated
    ///     file, when the generator writes one. The catalog then finds its spec from
    ///     the generated file's `#filePath`, so generated code committed to a
    ///     repository names the spec on every machine that builds it, not the path on
    ///     the machine that generated it. `nil`: the spec's path as given.
    /// - Returns: The model the file template renders.
    package func translate(_ spec: TrackingSpec, specFromOutput: String? = nil) -> RenderModel {
        let access = spec.access == .public ? "public " : ""
        let usesFoundation = Self.usesFoundation(spec)
        let objects = Dictionary(uniqueKeysWithValues: spec.objects.map { ($0.name, $0) })
        let plan = spec.version.map { (name: spec.planName, version: $0) }
        let metadata = spec.events.compactMap { metadataModel($0, objects: objects, plan: plan) }
        let metadataNames = Set(metadata.map(\.name))
        let screenMetadata = spec.screens.compactMap { metadataModel($0, objects: objects, plan: plan) }
        let screenMetadataNames = Set(screenMetadata.map(\.name))
        let fileName = String(spec.file.split(separator: "/").last ?? Substring(spec.file))
        let taskSet = taskSetModel(spec, fileName: fileName)
        return RenderModel(
            sourceFileName: SwiftLiteral.commentLines(fileName).joined(separator: " "),
            imports: usesFoundation ? ["Foundation"] : [],
            access: access,
            enums: spec.types.filter { $0.container == nil }.map(enumModel),
            objects: spec.objects.map(objectModel),
            events: spec.events.enumerated().map { index, event in
                eventModel(event, isFirst: index == 0, hasMetadata: metadataNames.contains(SwiftNaming.escaped(event.swiftName)))
            },
            hasEvents: !spec.events.isEmpty,
            metadata: metadata,
            hasMetadata: !metadata.isEmpty,
            hasScreens: !spec.screens.isEmpty,
            screenEnums: spec.types.filter { $0.container == "AnalyticsScreen" }.map(enumModel),
            screens: spec.screens.enumerated().map { index, screen in
                eventModel(
                    screen, isFirst: index == 0, hasMetadata: screenMetadataNames.contains(SwiftNaming.escaped(screen.swiftName)),
                    metadataEnum: "AnnaScreenMetadata", dictionaryName: "_properties"
                )
            },
            screenMetadata: screenMetadata,
            hasScreenMetadata: !screenMetadata.isEmpty,
            propertySets: [
                propertySetModel(spec.traits, typeName: "UserTrait", types: spec.types, objects: objects),
                propertySetModel(spec.groupTraits, typeName: "GroupTrait", types: spec.types, objects: objects),
                propertySetModel(spec.globals, typeName: "AnalyticsGlobal", types: spec.types, objects: objects),
            ].compactMap { $0 },
            hasGlobals: !spec.globals.isEmpty,
            globalKeys: spec.globals.map { global in
                RenderModel.GlobalKeyModel(
                    docLines: [" The key of the global property '\(global.name)'."],
                    name: SwiftNaming.escaped(global.swiftName),
                    nameLiteral: SwiftLiteral.string(global.name)
                )
            },
            hasTasks: !spec.tasks.isEmpty,
            taskSetName: taskSet.name,
            taskSetNameLiteral: taskSet.nameLiteral,
            taskSetAvailability: taskSet.availability,
            tasks: taskSet.tasks,
            catalog: catalogModel(
                spec, fileName: fileName, specFromOutput: specFromOutput, metadataNames: metadataNames,
                screenMetadataNames: screenMetadataNames)
        )
    }

    /// Whether a parameter, property or object property has a Foundation type (`Date`,
    /// `URL`, `UUID`), so the file imports Foundation. Reads the spec in place.
    private static func usesFoundation(_ spec: TrackingSpec) -> Bool {
        func isFoundation(_ parameter: TrackingSpec.Parameter) -> Bool {
            switch parameter.type.base {
            case .date, .url, .uuid: true
            default: false
            }
        }
        return spec.events.contains { $0.parameters.contains(where: isFoundation) }
            || spec.screens.contains { $0.parameters.contains(where: isFoundation) }
            || spec.traits.contains(where: isFoundation) || spec.groupTraits.contains(where: isFoundation)
            || spec.globals.contains(where: isFoundation)
            || spec.objects.contains { $0.properties.contains(where: isFoundation) }
    }

    private func enumModel(_ type: TrackingSpec.EnumType) -> RenderModel.EnumModel {
        RenderModel.EnumModel(
            docLines: docLines(type.description),
            name: type.container.map { String(type.swiftName.dropFirst($0.count + 1)) } ?? type.swiftName,
            indent: type.container == nil ? "" : "    ",
            cases: type.cases.map { enumCase in
                let name = SwiftNaming.escaped(enumCase.swiftName)
                let declaration = enumCase.rawValue == enumCase.swiftName
                    ? "case \(name)"
                    : "case \(name) = \(SwiftLiteral.string(enumCase.rawValue))"
                return RenderModel.CaseModel(declaration: declaration)
            }
        )
    }

    /// The factory of an event, or of a screen with its own metadata enum and dictionary name.
    private func eventModel(
        _ event: TrackingSpec.Event, isFirst: Bool, hasMetadata: Bool,
        metadataEnum: String = "AnnaSpecMetadata", dictionaryName: String = "_parameters"
    ) -> RenderModel.EventModel {
        // Optional parameters go last so they can default to nil.
        let ordered = event.signatureParameters
        var lines = docLines(event.description)
        let parameterDocs = parameterDocLines(ordered)
        if !parameterDocs.isEmpty {
            if !lines.isEmpty { lines.append("") }
            lines += parameterDocs
        }
        let availability = event.deprecationMessage.map { message in
            message.isEmpty
                ? "@available(*, deprecated)"
                : "@available(*, deprecated, message: \(SwiftLiteral.string(message)))"
        }
        let parts = MemberwiseParts(ordered, dictionary: dictionaryName)
        return RenderModel.EventModel(
            isFirst: isFirst,
            docLines: lines,
            availability: availability,
            isProperty: ordered.isEmpty,
            name: SwiftNaming.escaped(event.swiftName),
            memberwise: parts,
            hasRequiredParameters: parts.hasRequired,
            parametersKeyword: parts.hasOptional ? "var" : "let",
            nameLiteral: SwiftLiteral.string(event.name),
            metadataArgument: hasMetadata ? ", metadata: \(metadataEnum).\(SwiftNaming.escaped(event.swiftName))" : ""
        )
    }

    /// The extension of `UserTrait`, `GroupTrait` or `AnalyticsGlobal`; `nil` without properties.
    private func propertySetModel(
        _ properties: [TrackingSpec.Parameter], typeName: String, types: [TrackingSpec.EnumType],
        objects: [String: TrackingSpec.ObjectType]
    ) -> RenderModel.PropertySetModel? {
        guard !properties.isEmpty else { return nil }
        let isGlobal = typeName == "AnalyticsGlobal"
        return RenderModel.PropertySetModel(
            typeName: typeName,
            enums: types.filter { $0.container == typeName }.map(enumModel),
            properties: properties.enumerated().map { index, property in
                var metadata = "PropertyMetadata(isPII: \(property.isPII)"
                if !property.constraints.isEmpty { metadata += ", constraint: \(constraintInitializer(property.constraints))" }
                // Inside an object, by key path inside the value: the runtime prefixes the name.
                let nested = Self.nestedRules(of: property, path: "", objects: objects).constraints.map { path, constraint in
                    "\(SwiftLiteral.string(path)): \(constraintInitializer(constraint))"
                }
                if !nested.isEmpty { metadata += ", nestedConstraints: [\(nested.joined(separator: ", "))]" }
                metadata += ")"
                let persisted = isGlobal ? ", isPersisted: \(property.isPersisted)" : ""
                return RenderModel.PropertyModel(
                    isFirst: index == 0,
                    docLines: docLines(property.description),
                    name: SwiftNaming.escaped(property.swiftName),
                    valueType: property.swiftType,
                    initializer: "\(typeName)(name: \(SwiftLiteral.string(property.name)), value: value.analyticsValue, metadata: \(metadata)\(persisted))"
                )
            }
        )
    }

    /// The metadata constant of an event, or `nil` when it has only defaults. Every
    /// event of a versioned plan (`plan`) names the plan and its versions.
    private func metadataModel(
        _ event: TrackingSpec.Event, objects: [String: TrackingSpec.ObjectType],
        plan: (name: String, version: PlanVersion)?
    ) -> RenderModel.MetadataModel? {
        var arguments: [String] = []
        if event.consent != "analytics" { arguments.append("consent: \(SwiftLiteral.string(event.consent))") }
        arguments += ruleArguments(event.parameters, objects: objects)
        if event.deprecationMessage != nil { arguments.append("isDeprecated: true") }
        if let plan {
            arguments.append(
                "plan: AnalyticsEvent.PlanReference(name: \(SwiftLiteral.string(plan.name)), "
                    + "version: \(SwiftLiteral.string(plan.version.description)), "
                    + "eventVersion: \(SwiftLiteral.string(event.version.description)))")
        }
        guard !arguments.isEmpty else { return nil }
        return RenderModel.MetadataModel(
            name: SwiftNaming.escaped(event.swiftName),
            initializer: "AnalyticsEvent.Metadata(\(arguments.joined(separator: ", ")))"
        )
    }

    /// `piiKeys: […]` and `constraints: […]` of `AnalyticsEvent.Metadata` for these
    /// parameters and the properties inside their objects; those that are not empty.
    func ruleArguments(_ parameters: [TrackingSpec.Parameter], objects: [String: TrackingSpec.ObjectType]) -> [String] {
        var arguments: [String] = []
        var piiKeys: [String] = []
        var constrained: [(String, ParameterConstraint)] = []
        for index in parameters.indices where parameters[index].isPII {
            piiKeys.append(parameters[index].name)
        }
        for index in parameters.indices where !parameters[index].constraints.isEmpty {
            constrained.append((parameters[index].name, parameters[index].constraints))
        }
        if !objects.isEmpty {
            for parameter in parameters {
                let nested = Self.nestedRules(of: parameter, path: parameter.name, objects: objects)
                piiKeys += nested.pii
                constrained += nested.constraints.map { ($0.path, $0.constraint) }
            }
        }
        let pii = piiKeys.map(SwiftLiteral.string)
        if !pii.isEmpty { arguments.append("piiKeys: [\(pii.joined(separator: ", "))]") }
        let constraints = constrained.map { name, constraint in
            "\(SwiftLiteral.string(name)): \(constraintInitializer(constraint))"
        }
        if !constraints.isEmpty { arguments.append("constraints: [\(constraints.joined(separator: ", "))]") }
        return arguments
    }

    private func constraintInitializer(_ constraints: ParameterConstraint) -> String {
        var arguments: [String] = []
        if let min = constraints.min { arguments.append("min: \(min.compactDescription)") }
        if let max = constraints.max { arguments.append("max: \(max.compactDescription)") }
        if let minLength = constraints.minLength { arguments.append("minLength: \(minLength)") }
        if let maxLength = constraints.maxLength { arguments.append("maxLength: \(maxLength)") }
        if let pattern = constraints.pattern { arguments.append("pattern: \(SwiftLiteral.string(pattern))") }
        if let values = constraints.allowedValues {
            arguments.append("allowedValues: [\(values.map(SwiftLiteral.string).joined(separator: ", "))]")
        }
        return "ParameterConstraint(\(arguments.joined(separator: ", ")))"
    }

    /// Comment lines with the leading space the `///` needs, or none for an empty
    /// line; no lines for a missing or blank description.
    func docLines(_ text: String?) -> [String] {
        guard let text, !text.isBlank else { return [] }
        var lines = SwiftLiteral.commentLines(text)
        for index in lines.indices where !lines[index].isEmpty {
            lines[index] = String.concatenating(" ", lines[index])
        }
        return lines
    }
}
