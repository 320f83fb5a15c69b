extension CompiledTemplates {
    /// The `object` template: a struct generated from an object type. `access` as
    /// for ``enumeration(_:access:into:)``.
    static func object(_ model: RenderModel.ObjectModel, access: String, into out: inout SourceText) {
        lines(model.docLines, prefix: "///", into: &out)
        out += access
        out += "struct "
        out += model.name
        out += ": Sendable, Hashable, Codable, AnalyticsValueRepresentable {\n"
        for property in model.properties {
            lines(property.docLines, prefix: "    ///", into: &out)
            out += "    "
            out += access
            out += "var "
            out += property.declaration
            out += "\n"
        }
        out += "\n"
        lines(model.initializerDocLines, prefix: "    ///", into: &out)
        out += "    "
        out += access
        out += "init(\n"
        lines(model.arguments, prefix: "        ", into: &out)
        out += "    ) {\n"
        lines(model.assignments, prefix: "        ", into: &out)
        out += "    }\n\n    /// The value as providers receive it: an object of its properties.\n    "
        out += access
        out += "var analyticsValue: AnalyticsValue {\n"
        if model.hasRequiredProperties {
            out += "        "
            out += model.propertiesKeyword
            out += " _properties: [String: AnalyticsValue] = [\n"
            lines(model.requiredEntries, prefix: "            ", into: &out)
            out += "        ]\n"
        } else {
            out += "        var _properties: [String: AnalyticsValue] = [:]\n"
        }
        lines(model.optionalAssignments, prefix: "        ", into: &out)
        out += "        return .object(_properties)\n    }\n\n"
        out += "    /// Reads a value back from an object, as a task's `$value(keyPath)` does; `nil`\n"
        out += "    /// when a property is missing or of another type.\n    "
        out += access
        out += "init?(analyticsValue: AnalyticsValue) {\n        guard case .object(let _properties) = analyticsValue,\n"
        lines(model.decodings, prefix: "              ", into: &out)
        out += "        else { return nil }\n        self.init("
        out += model.initializerCall
        out += ")\n    }\n\n    private enum CodingKeys: String, CodingKey {\n"
        lines(model.codingKeys, prefix: "        ", into: &out)
        out += "    }\n}\n"
    }

    /// Each line after `prefix`, ending in a newline.
    private static func lines(_ lines: [String], prefix: String, into out: inout SourceText) {
        for line in lines {
            out += prefix
            out += line
            out += "\n"
        }
    }
}
