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
        text += "    \(catalog.access)static let \(catalog.identifier) = EventCatalog(\n"
        text += "        name: \(catalog.nameLiteral),\n"
        text += "        fingerprint: \(catalog.fingerprintLiteral),\n"
        text += "        events: [\n"
        for event in catalog.events {
            text += "            EventDescriptor(name: "
            text.appendLiteral(event.name)
            guard !event.parameters.isEmpty else {
                text += ", parameters: []),\n"
                continue
            }
            text += ", parameters: [\n"
            for index in event.parameters.indices {
                text += "                "
                descriptor(of: event.parameters, at: index, into: &text)
                text += ",\n"
            }
            text += "            ]),\n"
        }
        text += "        ],\n"
        text += "        specPath: {\n            #if DEBUG\n            return \(catalog.specPathExpression)\n            #else\n            return nil\n            #endif\n        }(),\n"
        text += "        make: { (name: String, arguments: CatalogArguments) throws(EventCatalogError) -> AnalyticsEvent? in\n"
        text += "            switch name {\n"
        for event in catalog.events {
            text += "            case "
            text.appendLiteral(event.name)
            text += ":\n"
            text += "                return AnalyticsEvent."
            text += event.factoryName
            guard !event.parameters.isEmpty else {
                text += "\n"
                continue
            }
            text += "(\n"
            let arguments = event.arguments ?? event.parameters
            for index in arguments.indices {
                text += index == 0 ? "                    " : ",\n                    "
                argument(of: arguments, at: index, into: &text)
            }
            text += "\n                )\n"
        }
        text += "            default:\n                return nil\n            }\n        }\n    )\n}\n"
        renderTaskDescriptions(catalog, into: &text)
    }

    /// `ParameterDescriptor(name: "title", type: String.self, kind: .string)`.
    ///
    /// Given the list and an index, so the parameter is read in place, not copied.
    private static func descriptor(of parameters: [RenderModel.CatalogParameterModel], at index: Int, into text: inout SourceText) {
        text += "ParameterDescriptor(name: "
        text.appendLiteral(parameters[index].name)
        text += ", type: "
        text += parameters[index].valueType
        text += ".self, kind: ."
        text += parameters[index].kind
        if parameters[index].isArray { text += ", isArray: true" }
        if parameters[index].isOptional { text += ", isOptional: true" }
        if !parameters[index].enumValues.isEmpty {
            text += ", enumValues: ["
            for (position, value) in parameters[index].enumValues.enumerated() {
                if position > 0 { text += ", " }
                text.appendLiteral(value)
            }
            text += "]"
        }
        text += ")"
    }

    /// `title: try arguments.required("title", as: String.self)`.
    private static func argument(of parameters: [RenderModel.CatalogParameterModel], at index: Int, into text: inout SourceText) {
        text += parameters[index].label
        text += parameters[index].isOptional ? ": try arguments.optional(" : ": try arguments.required("
        text.appendLiteral(parameters[index].name)
        text += ", as: "
        text += parameters[index].valueType
        text += ".self)"
    }

    /// A little more than the catalog's length, so the text it is written into
    /// does not grow.
    static func estimatedSize(of catalog: RenderModel.CatalogModel?) -> Int {
        guard let catalog else { return 0 }
        var size = 1024 + catalog.tasks.count * 320
        for event in catalog.events {
            size += 256 + event.parameters.count * 200
        }
        return size
    }

    private static func renderTaskDescriptions(_ catalog: RenderModel.CatalogModel, into text: inout SourceText) {
        guard !catalog.tasks.isEmpty else { return }
        text += "\nextension TaskDescription {\n"
        text += "    /// The tasks of \(catalog.fileName) as data: what `TaskSet.\(catalog.identifier)` compiles,\n"
        text += "    /// for a manager to interpret (`manager.loadTasks(_:catalog:)`) or a bundle to carry.\n"
        text += "    \(catalog.access)static let \(catalog.identifier): [TaskDescription] = [\n"
        for task in catalog.tasks {
            text += "        TaskDescription(\n"
            text += "            match: [\(task.matchLiterals.joined(separator: ", "))],\n"
            text += "            report: \(task.reportLiteral),\n"
            text += "            with: [\(task.withEntries.isEmpty ? ":" : task.withEntries.joined(separator: ", "))],\n"
            text += "            source: \(task.sourceLiteral)\n"
            text += "        ),\n"
        }
        text += "    ]\n}\n"
    }
}
