import AnnaRules
import _AnnaGeneratorCore

extension SchemaImporter {
    /// Hoists an object schema into a type under `types:` and returns its name; an
    /// object identical to one already hoisted reuses that type.
    mutating func objectType(_ schema: JSONNode, path: PropertyPath, isElement: Bool) -> String? {
        let declared = schema["properties"]?.members ?? []
        guard !declared.isEmpty else {
            warning("\(path.description) is an object without declared properties; Anna cannot type a free-form object, so it is not imported", at: schema.location)
            return nil
        }
        guard objectDepth < SpecValidationPass.maximumObjectDepth else {
            warning("\(path.description) nests objects more than \(SpecValidationPass.maximumObjectDepth) levels deep, Anna's limit (the deepest Mixpanel takes); it is not imported: send an id or flatten it", at: schema.location)
            return nil
        }
        objectDepth += 1
        defer { objectDepth -= 1 }
        let stem = isElement ? ImportNameScope.singular(path.key) : path.key
        // A `title` (as `anna export` writes one) names the type; otherwise its owner and key do.
        let title = Self.typeTitle(of: schema)
        let claim = typeNames.claim(title ?? path.owner.typeName + SwiftNaming.upperCamelCase(stem))
        let properties = self.properties(
            of: schema, owner: .object(typeName: claim.key), word: "property", context: "object type '\(claim.key)'")
        guard !properties.isEmpty else {
            typeNames.release(claim.key)
            warning("\(path.description) has no property Anna can carry; it is not imported", at: schema.location)
            return nil
        }
        return hoist(ImportedType(name: claim.key, description: Self.description(of: schema), body: .object(properties)), title: title)
    }

    /// A schema's `title` when it is a type name Anna can write (`UpperCamelCase`).
    static func typeTitle(of schema: JSONNode) -> String? {
        guard let title = schema["title"]?.string, let first = title.unicodeScalars.first, first.isASCIILetter,
              title.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit }),
              SwiftNaming.upperCamelCase(title) == title
        else { return nil }
        return title
    }

    /// Declares a type, or returns the name of an identical one declared before.
    /// - Parameter title: The name the plan gave the type (`title`), if any: a named
    ///   type is merged only with one of the same name and shape.
    mutating func hoist(_ type: ImportedType, title: String? = nil) -> String {
        let shape = (title.map { "title: \($0)\n" } ?? "") + SpecYAMLWriter.shape(of: type)
        if let existing = typesByShape[shape] {
            typeNames.release(type.name)
            return existing
        }
        typesByShape[shape] = type.name
        types.append(type)
        return type.name
    }

    /// The element type of an array schema, as `[T]`, with the elements' constraints on `property`.
    mutating func elementType(_ schema: JSONNode, path: PropertyPath, property: inout ImportedProperty) -> ImportedValueType? {
        for key in ["minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "additionalItems", "unevaluatedItems", "prefixItems"] {
            if let field = schema[key] {
                warning("'\(key)' of \(path.description) is not imported: Anna constrains an array's elements, not the array", at: field.location)
            }
        }
        var items = schema["items"]
        if let tuple = items?.elements {
            warning("'items' of \(path.description) lists a schema per position; Anna's arrays have one element type, so the first is imported", at: items?.location ?? schema.location)
            items = tuple.first
        }
        guard let items else {
            warning("\(path.description) is an array without 'items'; Anna's arrays are typed, so it is written as [string]", at: schema.location)
            return ImportedValueType(base: "string", isArray: true)
        }
        guard var element = valueType(items, path: path, property: &property, isElement: true) else { return nil }
        if element.isArray {
            warning("\(path.description) is an array of arrays; providers cannot take nested arrays, so it is written as one level, [\(element.base)]", at: items.location)
        }
        if element.isOptional {
            warning("the elements of \(path.description) may be null; providers cannot take nil inside arrays, so they are written as not optional", at: items.location)
        }
        element.isArray = true
        element.isOptional = false
        return element
    }

    /// Puts a property's enum where the spec can hold it: inline under an event, screen
    /// or trait when the type it becomes is free; otherwise a named type under `types:`.
    mutating func placeEnum(of property: inout ImportedProperty, owner: Owner) {
        guard let values = property.enumValues else { return }
        if let title = property.enumTitle {
            let claim = typeNames.claim(title)
            property.type.base = hoist(ImportedType(name: claim.key, description: nil, body: .enumeration(values)), title: title)
            property.enumValues = nil
            return
        }
        // Anna names an event's or screen's inline enum after it and the parameter, and
        // nests a trait's in UserTrait or GroupTrait, where it must not hide a top-level type.
        let implied = owner.isTrait
            ? SwiftNaming.upperCamelCase(property.key)
            : owner.typeName + SwiftNaming.upperCamelCase(property.key)
        if case .object = owner {} else if !typeNames.isTaken(implied) {
            typeNames.reserve(implied, by: property.key)
            return
        }
        let claim = typeNames.claim(owner.isTrait ? owner.typeName + implied : implied)
        property.type.base = hoist(ImportedType(name: claim.key, description: nil, body: .enumeration(values)))
        property.enumValues = nil
    }
}
