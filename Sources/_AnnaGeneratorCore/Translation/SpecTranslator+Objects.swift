import AnnaRules

extension SpecTranslator {
    /// The struct of an object type: stored properties, a memberwise initializer whose
    /// optional properties default to `nil`, its `AnalyticsValue` both ways, and coding
    /// keys that are the spec's names.
    func objectModel(_ object: TrackingSpec.ObjectType) -> RenderModel.ObjectModel {
        let ordered = object.signatureProperties
        var initializerDocs = [" Creates a value."]
        let parameterDocs = parameterDocLines(ordered)
        if !parameterDocs.isEmpty { initializerDocs += [""] + parameterDocs }
        let parts = MemberwiseParts(ordered, dictionary: "_properties")
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
            arguments: parts.arguments,
            assignments: ordered.map { property in
                let name = SwiftNaming.escaped(property.swiftName)
                return "self.\(name) = \(name)"
            },
            hasRequiredProperties: parts.hasRequired,
            propertiesKeyword: parts.hasOptional ? "var" : "let",
            requiredEntries: parts.requiredEntries,
            optionalAssignments: parts.optionalAssignments,
            decodings: decodings,
            initializerCall: ordered.map { property in
                "\(SwiftLiteral.argumentLabel(property.swiftName)): \(SwiftNaming.escaped(property.swiftName))"
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
    /// With an empty `path`, by key path inside the value (`email`), for a trait's or
    /// global's `PropertyMetadata`.
    static func nestedRules(
        of parameter: TrackingSpec.Parameter, path: String, objects: [String: TrackingSpec.ObjectType]
    ) -> (pii: [String], constraints: [(path: String, constraint: ParameterConstraint)]) {
        guard case .object(let name) = parameter.type.base, let object = objects[name] else { return ([], []) }
        var pii: [String] = []
        var constraints: [(path: String, constraint: ParameterConstraint)] = []
        for property in object.properties {
            let inner = path.isEmpty ? property.name : path + AnalyticsKeyPath.separator + property.name
            if property.isPII { pii.append(inner) }
            if !property.constraints.isEmpty { constraints.append((inner, property.constraints)) }
            let nested = nestedRules(of: property, path: inner, objects: objects)
            pii += nested.pii
            constraints += nested.constraints
        }
        return (pii, constraints)
    }
}
