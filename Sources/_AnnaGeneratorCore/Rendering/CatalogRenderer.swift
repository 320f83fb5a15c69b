/// Renders a ``RenderModel/CatalogModel``: the Swift appended to a spec's generated
/// file for tasks built at run time, whatever the templates.
///
/// A namespace of pure functions; all state is the ``SourceText`` each call builds.
enum CatalogRenderer {
    /// Appends the Swift of the catalog and the tasks as data to `text`, starting
    /// with a blank line; nothing without a catalog.
    /// - Parameters:
    ///   - catalog: The model, `nil` for a spec without events.
    ///   - text: The generated file so far.
    static func render(_ catalog: RenderModel.CatalogModel?, into text: inout SourceText) {
        guard let catalog else { return }
        text += "\nextension EventCatalog {\n"
        text += "    /// The events of \(catalog.fileName), described for tasks built at run time\n"
        text += "    /// (task bundles, reloaded tasks): a task can only report these, with values of these types.\n"
        text += "    /// Deprecated events are left out.\n"
        if catalog.calls != nil {
            text += "    /// Its screens, traits, global properties and object types are described too, for the\n"
            text += "    /// calls of web content in the app (`AnnaWebContent`).\n"
        }
        text += "    \(catalog.access)static let \(catalog.identifier) = EventCatalog(\n"
        text += "        name: \(catalog.nameLiteral),\n"
        text += "        fingerprint: \(catalog.fingerprintLiteral),\n"
        text += "        events: AnnaCatalog.events(),\n"
        if catalog.calls != nil { text += "        calls: AnnaCatalog.calls(),\n" }
        text += "        specPath: {\n            #if DEBUG\n            return \(catalog.specPathExpression)\n            #else\n            return nil\n            #endif\n        }()\n"
        text += "    )\n}\n"
        renderTaskDescriptions(catalog, into: &text)
        renderStatements(catalog, into: &text)
    }

    /// The catalog's events and tasks as functions of one statement per type, event
    /// or task, so that the type checker meets one event at a time: a literal of the
    /// whole plan is one constraint system, whose cost grows with the square of the
    /// plan (issue 51: 3.7 GB at 200 events). An event's parameters are strings, not
    /// a generic call each, and the event is built from them at run time rather than
    /// by a `switch` over every factory, so the catalog costs a fraction of the
    /// factories.
    private static func renderStatements(_ catalog: RenderModel.CatalogModel, into text: inout SourceText) {
        text += "\n/// The catalog's events and tasks, one statement each: no expression grows with the spec.\n"
        text += "private enum AnnaCatalog {\n"
        text += "    static func events() -> [EventDescriptor] {\n"
        if !catalog.events.isEmpty {
            text += catalog.types.isEmpty ? "        let types = CatalogTypes()\n" : "        var types = CatalogTypes()\n"
        }
        renderTypes(catalog.types, into: &text)
        text += "        var events: [EventDescriptor] = []\n"
        text += "        events.reserveCapacity(\(catalog.events.count))\n"
        for event in catalog.events {
            text += "        events.append("
            renderDescriptor(event.name, event.parameters, metadata: event.metadataName.map { "AnnaSpecMetadata." + $0 }, into: &text)
            text += ")\n"
        }
        text += "        return events\n    }\n"
        if let calls = catalog.calls { renderCalls(calls, into: &text) }
        if !catalog.tasks.isEmpty {
            text += "\n    static func taskDescriptions() -> [TaskDescription] {\n"
            text += "        var tasks: [TaskDescription] = []\n"
            text += "        tasks.reserveCapacity(\(catalog.tasks.count))\n"
            for task in catalog.tasks {
                text += "        tasks.append(TaskDescription(\n"
                text += "            match: [\(task.matchLiterals.joined(separator: ", "))],\n"
                text += "            report: \(task.reportLiteral),\n"
                text += "            with: [\(task.withEntries.isEmpty ? ":" : task.withEntries.joined(separator: ", "))],\n"
                text += "            source: \(task.sourceLiteral)\n"
                text += "        ))\n"
            }
            text += "        return tasks\n    }\n"
        }
        text += "}\n"
    }

    /// `static func calls() -> CatalogCalls`: one statement per type, screen and property set.
    private static func renderCalls(_ calls: RenderModel.CatalogCallsModel, into text: inout SourceText) {
        text += "\n    static func calls() -> CatalogCalls {\n"
        if !calls.screens.isEmpty || !calls.propertySets.isEmpty {
            text += calls.types.isEmpty ? "        let types = CatalogTypes()\n" : "        var types = CatalogTypes()\n"
        }
        renderTypes(calls.types, into: &text)
        text += "        var calls = CatalogCalls()\n"
        if !calls.screens.isEmpty { text += "        calls.screens.reserveCapacity(\(calls.screens.count))\n" }
        for screen in calls.screens {
            text += "        calls.screens.append("
            renderDescriptor(screen.name, screen.parameters, metadata: screen.metadataName.map { "AnnaScreenMetadata." + $0 }, into: &text)
            text += ")\n"
        }
        for set in calls.propertySets {
            text += "        calls.\(set.field) = "
            renderDescriptor(set.field, set.parameters, metadata: set.metadataInitializer, into: &text)
            text += "\n"
        }
        if !calls.objectProperties.isEmpty {
            text += "        calls.objectProperties = ["
            for (position, name) in calls.objectProperties.enumerated() {
                if position > 0 { text += ", " }
                text.appendLiteral(name)
            }
            text += "]\n"
        }
        text += "        return calls\n    }\n"
    }

    /// `types.add(T.self, named: "T", enumValues: […])` for each type.
    private static func renderTypes(_ types: [RenderModel.CatalogTypeModel], into text: inout SourceText) {
        for type in types {
            text += "        types.add("
            text += type.swiftName
            text += ".self, named: "
            text.appendLiteral(type.swiftName)
            if let values = type.enumValues {
                text += ", enumValues: ["
                for (position, value) in values.enumerated() {
                    if position > 0 { text += ", " }
                    text.appendLiteral(value)
                }
                text += "]"
            }
            text += ")\n"
        }
    }

    /// `types.event("name", parameters: ["key", "Type", …], metadata: …)`.
    private static func renderDescriptor(
        _ name: String, _ parameters: [RenderModel.CatalogParameterModel], metadata: String?, into text: inout SourceText
    ) {
        text += "types.event("
        text.appendLiteral(name)
        text += ", parameters: ["
        for (position, parameter) in parameters.enumerated() {
            if position > 0 { text += ", " }
            text.appendLiteral(parameter.name)
            text += ", "
            text.appendLiteral(parameter.isOptional ? parameter.valueType + "?" : parameter.valueType)
        }
        text += "]"
        if let metadata {
            text += ", metadata: "
            text += metadata
        }
        text += ")"
    }

    /// A little more than the catalog's length, so the text it is written into
    /// does not grow.
    static func estimatedSize(of catalog: RenderModel.CatalogModel?) -> Int {
        guard let catalog else { return 0 }
        var size = 1024 + catalog.tasks.count * 320
        for event in catalog.events + (catalog.calls?.screens ?? []) {
            size += 256 + event.parameters.count * 200
        }
        for set in catalog.calls?.propertySets ?? [] {
            size += 256 + set.parameters.count * 300
        }
        return size + (catalog.calls?.objectProperties.count ?? 0) * 40
    }

    private static func renderTaskDescriptions(_ catalog: RenderModel.CatalogModel, into text: inout SourceText) {
        guard !catalog.tasks.isEmpty else { return }
        text += "\nextension TaskDescription {\n"
        text += "    /// The tasks of \(catalog.fileName) as data: what `TaskSet.\(catalog.identifier)` compiles,\n"
        text += "    /// for a manager to interpret (`manager.loadTasks(_:catalog:)`) or a bundle to carry.\n"
        text += "    \(catalog.access)static let \(catalog.identifier): [TaskDescription] = AnnaCatalog.taskDescriptions()\n"
        text += "}\n"
    }
}
