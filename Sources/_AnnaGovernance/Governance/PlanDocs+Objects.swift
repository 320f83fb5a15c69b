import _AnnaGeneratorCore
extension PlanDocs {
    /// `## Object types`: a table of properties per object type, each with an anchor
    /// that the parameters of the type link to; empty without object types.
    func objectsMarkdown(_ spec: TrackingSpec) -> String {
        guard !spec.objects.isEmpty else { return "" }
        var text = "\n## Object types\n"
        for object in spec.objects {
            text += "\n### <a id=\"\(Self.anchor(object.name))\"></a>\(Self.inline(object.name))\n\n"
            if let description = object.description { text += Self.inline(description) + "\n\n" }
            text += "- Swift: `\(object.swiftName)`, a struct sent as an object\n\n"
            text += parameterTable(object.properties, spec: spec)
        }
        return text
    }

    /// A table cell with the type: a link to its section for an object type.
    static func typeCell(_ parameter: TrackingSpec.Parameter, spec: TrackingSpec) -> String {
        let code = "`\(cell(typeText(parameter, spec: spec)))`"
        guard let name = objectName(parameter) else { return code }
        return "[\(code)](#\(anchor(name)))"
    }

    /// The object type a parameter's type names, if any.
    static func objectName(_ parameter: TrackingSpec.Parameter) -> String? {
        if case .object(let name) = parameter.type.base { return name }
        return nil
    }

    /// `type-product-line`: a name as an HTML id, letters and digits only.
    static func anchor(_ name: String) -> String {
        "type-" + String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    /// Whether a value of the type carries PII, in it or in the objects within.
    static func hasPII(_ object: TrackingSpec.ObjectType, in spec: TrackingSpec, depth: Int = 0) -> Bool {
        object.properties.contains { property in
            if property.isPII { return true }
            guard depth < 8, let name = objectName(property), let inner = spec.objects.first(where: { $0.name == name }) else { return false }
            return hasPII(inner, in: spec, depth: depth + 1)
        }
    }
}
