import AnnaRules

extension SpecTranslator {
    /// The struct of an object type: stored properties, a memberwise initializer whose
    /// optional properties default to `nil`, its `AnalyticsValue` both ways, and coding
    /// keys that are the spec's names.
    func objectModel(_ object: TrackingSpec.ObjectType) -> RenderModel.ObjectModel {
        let ordered = object.signatureProperties
        var initializerDocs = [" Creates a value."]
        let documented = ordered.compactMap { property -> (String, [String])? in
            let text = docLines(property.description)
            return text.isEmpty ? nil : (property.swiftName, text)
        }
        if !documented.isEmpty {
            initializerDocs.append("")
            initializerDocs.append(" - Parameters:")
            for (name, text) in documented {
                initializerDocs.append("   - \(name):\(text.first ?? "")")
                initializerDocs.append(contentsOf: text.dropFirst().map { "    \($0)" })
            }
        }
        let arguments = ordered.enumerated().map { index, property in
            let separator = index == ordered.count - 1 ? "" : ","
            return "\(SwiftNaming.escaped(property.swiftName)): \(property.swiftType)\(property.type.isOptional ? " = nil" : "")\(separator)"
        }
        let required = ordered.filter { !$0.type.isOptional }
        let requiredEntries = required.enumerated().map { index, property in
            let separator = index == required.count - 1 ? "" : ","
            return "\(SwiftLiteral.string(property.name)): \(SwiftNaming.escaped(property.swiftName)).analyticsValue\(separator)"
        }
        let optionalAssignments = ordered.filter(\.type.isOptional).map { property in
            let name = SwiftNaming.escaped(property.swiftName)
            return "if let \(name) { _properties.updateValue(\(name).analyticsValue, forKey: \(SwiftLiteral.string(property.name))) }"
        }
        let decodings = ordered.enumerated().map { index, property in
            let method = property.type.isOptional ? "decodedIfPresent" : "decoded"
            let separator = index == ordered.count - 1 ? "" : ","
            return "let \(SwiftNaming.escaped(property.swiftName)) = _properties.\(method)(\(SwiftLiteral.string(property.name)), as: \(property.swiftValueType).self)\(separator)"
        }
        return RenderModel.ObjectModel(
            docLines: docLines(object.description),
            name: SwiftNaming.escaped(object.swiftName),
            properties: object.properties.map { property in
                RenderModel.ObjectPropertyModel(
                    docLines: docLines(property.description),
                    declaration: "\(SwiftNaming.escaped(property.swiftName)): \(property.swiftType)"
                )
            },
            initializerDocLines: initializerDocs,
            arguments: arguments,
            assignments: ordered.map { property in
                let name = SwiftNaming.escaped(property.swiftName)
                return "self.\(name) = \(name)"
            },
            hasRequiredProperties: !required.isEmpty,
            propertiesKeyword: optionalAssignments.isEmpty ? "let" : "var",
            requiredEntries: requiredEntries,
            optionalAssignments: optionalAssignments,
            decodings: decodings,
            initializerCall: ordered.map { property in
                "\(CatalogRenderer.argumentLabel(property.swiftName)): \(SwiftNaming.escaped(property.swiftName))"
            }.joined(separator: ", "),
            codingKeys: object.properties.map { property in
                let name = SwiftNaming.escaped(property.swiftName)
                return property.name == property.swiftName ? "case \(name)" : "case \(name) = \(SwiftLiteral.string(property.name))"
            }
        )
    }

    /// The PII marks and constraints inside a parameter of an object type, by key
    /// path from the parameter (`products/email`), for the event's metadata: the
    /// runtime strips and checks them in every object, and in every object of a list.
    static func nestedRules(
        of parameter: TrackingSpec.Parameter, path: String, objects: [String: TrackingSpec.ObjectType]
    ) -> (pii: [String], constraints: [(path: String, constraint: ParameterConstraint)]) {
        guard case .object(let name) = parameter.type.base, let object = objects[name] else { return ([], []) }
        var pii: [String] = []
        var constraints: [(path: String, constraint: ParameterConstraint)] = []
        for property in object.properties {
            let inner = path + AnalyticsKeyPath.separator + property.name
            if property.isPII { pii.append(inner) }
            if !property.constraints.isEmpty { constraints.append((inner, property.constraints)) }
            let nested = nestedRules(of: property, path: inner, objects: objects)
            pii += nested.pii
            constraints += nested.constraints
        }
        return (pii, constraints)
    }
}
