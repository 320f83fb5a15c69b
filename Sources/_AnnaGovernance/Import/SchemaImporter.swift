import AnnaRules
import _AnnaGeneratorCore

/// Turns the JSON Schema of a plan's properties or traits into Anna parameters,
/// hoisting nested objects into object types and reporting, at its place in the plan,
/// everything Anna cannot express.
struct SchemaImporter {
    /// Types hoisted so far, in order of first use.
    var types: [ImportedType] = []
    /// How many objects enclose the properties being read.
    var objectDepth = 0
    /// Type names, shared by object types, enums and the inline enums of events.
    var typeNames = ImportNameScope.types()
    /// A hoisted type's name by its rendered body: an identical object is declared once.
    var typesByShape: [String: String] = [:]
    var diagnostics: [Diagnostic] = []
    /// Global properties: an event's properties marked `x-anna-global: true` (as
    /// `anna export` writes the globals on every event), the first declaration of each.
    var globals: [ImportedProperty] = []

    /// Where properties are declared, which decides how their enums and objects are named.
    enum Owner {
        /// An event's or screen's parameters: an inline enum is named after event and parameter.
        case event(typeName: String)
        /// Traits and group traits: inline enums are nested in `UserTrait` / `GroupTrait`.
        case trait(typeName: String)
        /// An object type's properties: enums become named types.
        case object(typeName: String)

        var typeName: String {
            switch self {
            case .event(let name), .trait(let name), .object(let name): name
            }
        }
    }

    mutating func warning(_ message: String, at location: SourceLocation) {
        diagnostics.append(.warning(message, at: location))
    }

    mutating func note(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(.note, message, at: location))
    }

    /// The properties of an object schema (`properties`, `required`).
    /// - Parameters:
    ///   - schema: The object schema; `nil` or `{}` declares nothing.
    ///   - owner: What the properties belong to.
    ///   - word: How messages name one: `parameter`, `trait`, `property`.
    ///   - context: How messages name the owner: `event 'Order Completed'`.
    ///   - requiredIsKept: Whether `required` can be expressed (traits are never required in Anna).
    mutating func properties(
        of schema: JSONNode?, owner: Owner, word: String, context: String, requiredIsKept: Bool = true
    ) -> [ImportedProperty] {
        guard let schema, schema.members != nil else {
            if let schema { warning("expected a JSON Schema object for \(context), found \(schema.kindDescription); nothing is imported from it", at: schema.location) }
            return []
        }
        checkObjectKeywords(schema, context: context)
        guard let propertiesNode = schema["properties"] else { return [] }
        guard let declared = propertiesNode.members else {
            warning("'properties' of \(context) is \(propertiesNode.kindDescription), not an object; nothing is imported from it", at: propertiesNode.location)
            return []
        }
        let required = Set(schema["required"]?.elements?.compactMap(\.string) ?? [])
        var scope = ImportNameScope(word: word, prefix: word, reserved: owner.reservedNames, reservedSuffix: owner.isObject ? "Property" : "Value")
        if case .object = owner { scope.checksSnakeCase = true }
        var result: [ImportedProperty] = []
        for (index, member) in declared.enumerated() {
            if case .event = owner, member.value["x-anna-global"]?.bool == true {
                if !globals.contains(where: { $0.key == member.key }) {
                    let path = PropertyPath(owner: .trait(typeName: "AnalyticsGlobal"), key: member.key, original: member.key, context: "the globals", word: "global property")
                    if var global = property(member.value, path: path) {
                        placeEnum(of: &global, owner: .trait(typeName: "AnalyticsGlobal"))
                        // A global is left out by not setting it, never sent as null.
                        global.type.isOptional = false
                        global.isPII = member.value["x-anna-pii"]?.bool == true
                        globals.append(global)
                    }
                }
                continue
            }
            if let again = declared[(index + 1)...].first(where: { $0.key == member.key }) {
                warning("\(word) '\(member.key)' of \(context) is declared again at line \(again.keyLocation.line), column \(again.keyLocation.column); the last declaration is imported, as JSON readers keep it", at: member.keyLocation)
                continue
            }
            let claim = scope.claim(member.key)
            report(claim, original: member.key, word: word, context: context, at: member.keyLocation)
            // A PII parameter is never required in the schema (a provider without
            // receivesPII never sees it); `anna export` says the spec requires it.
            let isRequired = required.contains(member.key) || member.value["x-anna-required"]?.bool == true
            if isRequired, !requiredIsKept {
                warning("\(word) '\(member.key)' of \(context) is required in the plan; Anna cannot require a \(word) (one is sent when set), so it is optional", at: member.keyLocation)
            }
            let path = PropertyPath(owner: owner, key: claim.key, original: member.key, context: context, word: word)
            guard var property = property(member.value, path: path) else { continue }
            if !owner.isTrait, member.value["x-anna-pii"]?.bool == true { property.isPII = true }
            placeEnum(of: &property, owner: owner)
            if !isRequired, requiredIsKept { property.type.isOptional = true }
            if !requiredIsKept { property.type.isOptional = false }
            result.append(property)
        }
        for name in required.sorted() where !declared.contains(where: { $0.key == name }) {
            warning("'required' of \(context) names '\(name)', which its 'properties' do not declare; it is not imported", at: schema["required"]?.location ?? schema.location)
        }
        return result
    }

    private mutating func report(_ claim: ImportNameScope.Claim, original: String, word: String, context: String, at location: SourceLocation) {
        guard claim.converted else { return }
        if let collision = claim.collision {
            warning("\(word) '\(original)' of \(context) is written as '\(claim.key)' and sent under that name: \(collision)", at: location)
        } else {
            warning("\(word) name '\(original)' of \(context) is not a valid Anna name (ASCII letters, digits, spaces, '_', '-', '.', starting with a letter); it is written as '\(claim.key)' and sent under that name", at: location)
        }
    }

    /// Warns about keywords of an object schema that Anna has no way to say.
    private mutating func checkObjectKeywords(_ schema: JSONNode, context: String) {
        guard let members = schema.members else { return }
        for member in members {
            switch member.key {
            case "additionalProperties":
                if member.value.bool == false { continue }
                warning("'additionalProperties' of \(context) is not imported: Anna sends only declared properties; declare the ones you send", at: member.keyLocation)
            case "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependencies",
                "dependentRequired", "dependentSchemas", "unevaluatedProperties":
                warning("'\(member.key)' of \(context) is not imported: Anna has no such rule for objects", at: member.keyLocation)
            default: continue
            }
        }
    }
}

extension SchemaImporter.Owner {
    /// Swift names the validator refuses for what the owner declares.
    var reservedNames: Set<String> {
        switch self {
        case .event: SwiftNaming.reservedParameterNames
        case .trait: SpecValidationPass.reservedPropertyNames
        case .object: SpecValidationPass.reservedObjectPropertyNames
        }
    }

    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    var isTrait: Bool {
        if case .trait = self { return true }
        return false
    }
}

/// Where a property sits, for naming its hoisted types and for messages.
struct PropertyPath {
    var owner: SchemaImporter.Owner
    /// The key written for the property.
    var key: String
    /// The plan's name for it.
    var original: String
    var context: String
    var word: String

    var description: String { "\(word) '\(original)' of \(context)" }
}
