extension CompiledTemplates {
    /// The `object` template: a struct generated from an object type. `access` as
    /// for ``enumeration(_:access:into:)``.
    static func object(_ model: RenderModel.ObjectModel, access: String, into out: inout SourceText) {
        out.appendLines(model.docLines, prefix: "///")
        out += access
        out += "struct "
        out += model.name
        out += ": Sendable, Hashable, Codable, AnalyticsValueRepresentable {\n"
        for property in model.properties {
            out.appendLines(property.docLines, prefix: "    ///")
            out += "    "
            out += access
            out += "var "
            out += property.declaration
            out += "\n"
        }
        out += "\n"
        out.appendLines(model.initializerDocLines, prefix: "    ///")
        out += "    "
        out += access
        out += "init(\n"
        out.appendLines(model.arguments, prefix: "        ")
        out += "    ) {\n"
        out.appendLines(model.assignments, prefix: "        ")
        out += "    }\n\n    /// The value as providers receive it: an object of its properties.\n    "
        out += access
        out += "var analyticsValue: AnalyticsValue {\n"
        if model.hasRequiredProperties {
            out += "        "
            out += model.propertiesKeyword
            out += " _properties: [String: AnalyticsValue] = [\n"
            out.appendLines(model.requiredEntries, prefix: "            ")
            out += "        ]\n"
        } else {
            out += "        var _properties: [String: AnalyticsValue] = [:]\n"
        }
        out.appendLines(model.optionalAssignments, prefix: "        ")
        out += "        return .object(_properties)\n    }\n\n"
        out += "    /// Reads a value back from an object, as a task's `$value(keyPath)` does; `nil`\n"
        out += "    /// when a property is missing or of another type.\n    "
        out += access
        out += "init?(analyticsValue: AnalyticsValue) {\n        guard case .object(let _properties) = analyticsValue,\n"
        out.appendLines(model.decodings, prefix: "              ")
        out += "        else { return nil }\n        self.init("
        out += model.initializerCall
        out += ")\n    }\n\n    private enum CodingKeys: String, CodingKey {\n"
        out.appendLines(model.codingKeys, prefix: "        ")
        out += "    }\n}\n"
    }
}
