import AnnaRules

extension SpecValidationPass {
    /// How many object levels a value may have: a parameter of type `Order` whose
    /// `shipping` is an `Address` has two. Three is the deepest nesting Mixpanel
    /// documents for object properties; Firebase takes one (its `items`), Segment and
    /// Amplitude more, so a spec within three sends the same data to all of them.
    package static let maximumObjectDepth = 3

    /// Names a struct's members take, which a property would clash with.
    package static let reservedObjectPropertyNames: Set<String> = [
        "init", "self", "Self", "Type", "Protocol", "analyticsValue", "hashValue", "hash", "encode",
    ]

    /// Registers an object type's name, so that types and parameters can refer to it
    /// before its properties are read; `false` when the name cannot be used.
    mutating func declareObject(name: String, at location: SourceLocation) -> Bool {
        defer { if objects[name] == nil { rejectedTypeNames.insert(name) } }
        guard SwiftNaming.isValidName(name) else {
            context.error("type name '\(name)' cannot become a Swift type name; use ASCII letters, digits, spaces, '_', '-' or '.', starting with a letter", at: location)
            return false
        }
        let swiftName = SwiftNaming.upperCamelCase(name)
        if Self.scalarTypes[name] != nil || SwiftNaming.reservedTypeNames.contains(swiftName) || Self.generatedTypeNames.contains(swiftName) {
            context.error("type name '\(name)' is taken by a type generated code uses; rename it, e.g. '\(swiftName)Item'", at: location)
            return false
        }
        if let first = swiftTypeNames[swiftName] {
            context.error("type '\(name)' becomes the Swift type '\(swiftName)', already declared at line \(first.line), column \(first.column); rename one of them", at: location)
            return false
        }
        swiftTypeNames[swiftName] = location
        objects[name] = TrackingSpec.ObjectType(name: name, swiftName: swiftName, description: nil, properties: [], location: location)
        objectOrder.append(name)
        return true
    }

    /// Reads an object type's `description:` and `properties:`; each property is
    /// written exactly like an event parameter.
    mutating func defineObject(_ pair: YAMLPair, fields: MappingFields) {
        let name = pair.key
        guard var object = objects[name], let propertiesField = fields["properties"] else { return }
        object.description = context.string(fields["description"], expected: "a description")
        guard let entries = context.pairs(of: propertiesField.value, expected: "'properties' of type '\(name)'") else {
            dropObject(name)
            return
        }
        guard !entries.isEmpty else {
            context.error("type '\(name)' has no properties; an empty object tells providers nothing: list its properties, e.g. properties: { id: string }, or use a bool parameter", at: propertiesField.keyLocation)
            dropObject(name)
            return
        }
        var swiftNames = NameTable()
        var wireNames = NameTable()
        var valid = true
        for entry in entries {
            let owner = ParameterOwner(parameter: entry.key, event: name, kind: .objectProperty)
            guard SwiftNaming.isValidName(entry.key) else {
                context.error("property name '\(entry.key)' of type '\(name)' cannot become a Swift name; use ASCII letters, digits, spaces, '_', '-' or '.', starting with a letter", at: entry.keyLocation)
                valid = false
                continue
            }
            let swiftName = SwiftNaming.lowerCamelCase(entry.key)
            if Self.reservedObjectPropertyNames.contains(swiftName) {
                context.error("\(owner) becomes '\(swiftName)', which the generated struct already has; rename it", at: entry.keyLocation)
                valid = false
                continue
            }
            if let (other, location) = swiftNames[swiftName] {
                context.error("properties '\(other)' (line \(location.line), column \(location.column)) and '\(entry.key)' of type '\(name)' both become '\(swiftName)' in Swift; rename one of them", at: entry.keyLocation)
                valid = false
                continue
            }
            swiftNames.take(swiftName, by: (entry.key, entry.keyLocation))
            // Mappers rename nested keys too, so two keys one snake-case name apart
            // would overwrite each other for Firebase and every SnakeCaseEventMapper.
            let snake = SnakeCase.convert(entry.key)
            if let (other, location) = wireNames[snake] {
                context.error("properties '\(other)' (line \(location.line), column \(location.column)) and '\(entry.key)' of type '\(name)' are both sent as '\(snake)' in snake case (Firebase, SnakeCaseEventMapper); rename one of them", at: entry.keyLocation)
                valid = false
                continue
            }
            wireNames.take(snake, by: (entry.key, entry.keyLocation))
            guard let property = typedParameter(entry, swiftName: swiftName, owner: owner) else {
                valid = false
                continue
            }
            object.properties.append(property)
        }
        if valid {
            objects[name] = object
        } else {
            dropObject(name)
        }
    }

    /// Forgets an object type whose declaration had an error: uses of it are not
    /// reported again.
    private mutating func dropObject(_ name: String) {
        objects[name] = nil
        objectOrder.removeAll { $0 == name }
        rejectedTypeNames.insert(name)
    }

    /// Rejects object types that contain themselves, directly or through others, and
    /// types nested deeper than ``maximumObjectDepth``; each at the property that
    /// closes the cycle or the type that is too deep.
    mutating func checkObjectGraph() {
        var depths: [String: Int] = [:]
        var reported: Set<String> = []
        for name in objectOrder {
            _ = depth(of: name, path: [], depths: &depths, reported: &reported)
        }
        for name in objectOrder where !reported.contains(name) {
            guard let depth = depths[name], depth > Self.maximumObjectDepth, let object = objects[name] else { continue }
            context.error("type '\(name)' nests objects \(depth) levels deep, over the limit of \(Self.maximumObjectDepth) (the deepest Mixpanel takes; Firebase takes one); flatten a level, e.g. send an id instead of the object", at: object.location)
            reported.insert(name)
        }
        for name in reported { dropObject(name) }
    }

    /// The object levels of a value of `name`, itself included; `path` holds the types
    /// being walked, to find cycles.
    private mutating func depth(
        of name: String, path: [String], depths: inout [String: Int], reported: inout Set<String>
    ) -> Int {
        if let known = depths[name] { return known }
        guard let object = objects[name] else { return 0 }
        var deepest = 0
        for property in object.properties {
            guard case .object(let inner) = property.type.base else { continue }
            if inner == name || path.contains(inner) {
                if !reported.contains(name) {
                    let chain = (path + [name]).drop { $0 != inner } + [inner]
                    context.error("\(ParameterOwner(parameter: property.name, event: name, kind: .objectProperty)) makes type '\(inner)' contain itself (\(chain.joined(separator: " → "))); tracked values cannot be recursive: send an id of the inner value instead", at: property.location)
                    reported.insert(name)
                }
                continue
            }
            deepest = Swift.max(deepest, depth(of: inner, path: path + [name], depths: &depths, reported: &reported))
        }
        depths[name] = deepest + 1
        return deepest + 1
    }
}
