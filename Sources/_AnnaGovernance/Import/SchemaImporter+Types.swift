import AnnaRules
import Foundation
import _AnnaGeneratorCore

extension SchemaImporter {
    /// One property: its type, constraints and description, or `nil` when Anna cannot
    /// carry it at all (a free-form object, `null` only), with a warning.
    mutating func property(_ schema: JSONNode, path: PropertyPath) -> ImportedProperty? {
        var property = ImportedProperty(key: path.key, type: ImportedValueType(base: "string"))
        property.description = Self.description(of: schema)
        guard let type = valueType(schema, path: path, property: &property, isElement: false) else { return nil }
        property.type = type
        return property
    }

    static func description(of schema: JSONNode) -> String? {
        guard let text = schema["description"]?.string,
              !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }

    /// The type of a schema, filling `property`'s constraints; `isOptional` says whether
    /// the schema allows `null`.
    mutating func valueType(
        _ original: JSONNode, path: PropertyPath, property: inout ImportedProperty, isElement: Bool
    ) -> ImportedValueType? {
        let (schema, composedNullable) = resolveComposition(original, path: path)
        if let accepted = schema.bool {
            if accepted { warning("\(path.description) accepts any value; Anna has no such type, so it is written as string", at: schema.location) }
            else { warning("\(path.description) accepts no value; it is not imported", at: schema.location) }
            return accepted ? ImportedValueType(base: "string", isOptional: composedNullable) : nil
        }
        guard schema.members != nil else {
            warning("\(path.description) is \(schema.kindDescription), not a JSON Schema object; it is not imported", at: schema.location)
            return nil
        }
        checkKeywords(schema, path: path)
        var (names, nullable) = Self.typeNames(of: schema)
        let unknown = names.filter { !Self.jsonTypes.contains($0) }
        for name in unknown {
            warning("\(path.description) has the type '\(name)', which JSON Schema does not have; it is ignored (a schema with no other type is written as string)", at: schema["type"]?.location ?? schema.location)
        }
        names.removeAll { !Self.jsonTypes.contains($0) }
        nullable = nullable || composedNullable
        let kind: String
        switch Set(names) {
        case [] where !unknown.isEmpty:
            kind = "string"
        case []:
            if nullable, schema["type"] != nil {
                warning("\(path.description) can only be null; it is not imported", at: schema.location)
                return nil
            }
            warning("\(path.description) has no type and accepts any value; Anna has no such type, so it is written as string", at: schema.location)
            kind = "string"
        case ["integer"]: kind = "integer"
        case ["number"], ["integer", "number"]: kind = "number"
        case ["string"], ["boolean"], ["object"], ["array"]: kind = names[0]
        default:
            kind = names.contains("string") ? "string" : names.contains("number") || names.contains("integer") ? "number" : names.sorted()[0]
            warning("\(path.description) is a union of types (\(names.joined(separator: ", "))); Anna has no unions, so it is written as \(Self.annaName(of: kind))", at: schema["type"]?.location ?? schema.location)
        }
        var type: ImportedValueType
        switch kind {
        case "integer", "number":
            type = ImportedValueType(base: kind == "integer" ? "int" : "double")
            numberConstraints(schema, isInteger: kind == "integer", path: path, property: &property)
        case "boolean":
            type = ImportedValueType(base: "bool")
            if let values = schema["enum"] ?? schema["const"] {
                warning("the allowed values of the boolean \(path.description) are not imported: Anna's enums are strings", at: values.location)
            }
        case "object":
            guard let name = objectType(schema, path: path, isElement: isElement) else { return nil }
            type = ImportedValueType(base: name)
        case "array":
            guard let element = elementType(schema, path: path, property: &property) else { return nil }
            type = element
        default:
            type = stringType(schema, path: path, property: &property)
        }
        type.isOptional = nullable
        return type
    }

    /// `anyOf` / `oneOf` whose only non-null choice is one schema is that schema, nullable;
    /// other unions keep their first choice, with a warning.
    private mutating func resolveComposition(_ schema: JSONNode, path: PropertyPath) -> (JSONNode, Bool) {
        for key in ["anyOf", "oneOf", "allOf"] {
            guard let branches = schema[key]?.elements, let location = schema[key]?.location else { continue }
            let choices = branches.filter { !Self.isNull($0) }
            let nullable = key != "allOf" && choices.count < branches.count
            guard let first = choices.first else { return (schema, nullable) }
            if choices.count > 1 {
                let what = key == "allOf" ? "all of several schemas" : "one of several schemas"
                warning("'\(key)' of \(path.description) asks for \(what); Anna has no such rule, so only the first is imported", at: location)
            }
            let (inner, innerNullable) = resolveComposition(first, path: path)
            return (inner, nullable || innerNullable)
        }
        return (schema, false)
    }

    private static func isNull(_ schema: JSONNode) -> Bool {
        schema["type"]?.string == "null" || (schema["const"].map { $0.content == .null } ?? false)
    }

    /// The JSON Schema types a schema allows besides `null`, and whether it allows `null`.
    static func typeNames(of schema: JSONNode) -> ([String], Bool) {
        var names: [String]
        if let type = schema["type"] {
            names = type.string.map { [$0] } ?? type.elements?.compactMap(\.string) ?? []
        } else if schema["properties"] != nil {
            names = ["object"]
        } else if schema["items"] != nil {
            names = ["array"]
        } else if let values = (schema["enum"]?.elements ?? schema["const"].map { [$0] }) {
            names = values.compactMap { value in
                switch value.content {
                case .string: "string"
                case .number: "number"
                case .bool: "boolean"
                default: nil
                }
            }
        } else if schema["format"] != nil || schema["pattern"] != nil || schema["minLength"] != nil || schema["maxLength"] != nil {
            names = ["string"]
        } else if schema["minimum"] != nil || schema["maximum"] != nil {
            names = ["number"]
        } else {
            names = []
        }
        var nullable = names.contains("null")
        if let values = schema["enum"]?.elements, values.contains(where: { $0.content == .null }) { nullable = true }
        var unique: [String] = []
        for name in names where name != "null" && !unique.contains(name) { unique.append(name) }
        return (unique, nullable)
    }

    /// JSON Schema's types besides `null`.
    static let jsonTypes: Set<String> = ["string", "integer", "number", "boolean", "object", "array"]

    static func annaName(of jsonType: String) -> String {
        switch jsonType {
        case "integer": "int"
        case "number": "double"
        case "boolean": "bool"
        default: jsonType
        }
    }

    /// Keywords Anna cannot express on any property.
    private mutating func checkKeywords(_ schema: JSONNode, path: PropertyPath) {
        for member in schema.members ?? [] {
            switch member.key {
            case "not", "if", "then", "else", "$ref", "contentEncoding", "contentMediaType":
                warning("'\(member.key)' of \(path.description) is not imported: Anna has no such rule", at: member.keyLocation)
            default: continue
            }
        }
    }
}
