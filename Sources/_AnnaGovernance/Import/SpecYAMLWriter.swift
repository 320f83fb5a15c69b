import AnnaRules
import _AnnaGeneratorCore

/// Writes an ``ImportedSpec`` as a readable `.anna.yml`: block style throughout, keys
/// in a fixed order, every name and text quoted where YAML needs it.
package enum SpecYAMLWriter {
    /// The spec's text.
    /// - Parameters:
    ///   - spec: What to write.
    ///   - source: The plan's file name, for the header comment.
    ///   - schemaPath: Where the YAML language server finds `anna.schema.json`.
    /// - Returns: The file's contents.
    package static func render(_ spec: ImportedSpec, source: String, schemaPath: String) -> String {
        var lines = ["# yaml-language-server: $schema=\(YAMLScalarQuoting.commentText(schemaPath))"]
        var origin = "# Imported by anna import from \(YAMLScalarQuoting.commentText(source))"
        if let name = spec.planName { origin += " (Segment tracking plan \"\(YAMLScalarQuoting.commentText(name))\")" }
        lines.append(origin)
        lines.append("# anna import printed a warning for each part of the plan that did not map; review them.")
        lines.append("anna: 1")
        if let namespace = spec.namespace { lines.append("namespace: \(YAMLScalarQuoting.scalar(namespace))") }
        if !spec.providers.isEmpty { lines.append("providers: [\(spec.providers.map(YAMLScalarQuoting.scalar).joined(separator: ", "))]") }
        if !spec.types.isEmpty {
            lines.append("")
            lines.append("types:")
            for type in spec.types {
                lines.append("  \(YAMLScalarQuoting.scalar(type.name)):")
                lines += body(of: type).map { "    " + $0 }
            }
        }
        let isEmpty = spec.events.isEmpty && spec.screens.isEmpty && spec.traits.isEmpty && spec.groupTraits.isEmpty
        if !spec.events.isEmpty || isEmpty { lines += section("events", spec.events) }
        if !spec.screens.isEmpty { lines += section("screens", spec.screens) }
        for (key, properties) in [("traits", spec.traits), ("groupTraits", spec.groupTraits), ("globals", spec.globals)] where !properties.isEmpty {
            lines.append("")
            lines.append("\(key):")
            lines += properties.flatMap { property($0).map { "  " + $0 } }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A type's body without its name: two identical objects have the same shape.
    static func shape(of type: ImportedType) -> String {
        body(of: type).joined(separator: "\n")
    }

    private static func body(of type: ImportedType) -> [String] {
        var lines: [String] = []
        if let description = type.description { lines.append("description: \(YAMLScalarQuoting.scalar(description))") }
        switch type.body {
        case .object(let properties):
            lines.append("properties:")
            lines += properties.flatMap { property($0).map { "  " + $0 } }
        case .enumeration(let values):
            lines.append("enum:")
            lines += values.map { "  - \(YAMLScalarQuoting.scalar($0))" }
        }
        return lines
    }

    private static func section(_ key: String, _ events: [ImportedEvent]) -> [String] {
        var lines = ["", "\(key):"]
        if events.isEmpty {
            lines[1] += " {}"
            return lines
        }
        for event in events {
            let name = YAMLScalarQuoting.scalar(event.key)
            if event.wireName == nil, event.description == nil, event.deprecationMessage == nil, event.consent == nil, event.parameters.isEmpty {
                lines.append("  \(name): {}")
                continue
            }
            lines.append("  \(name):")
            if let wireName = event.wireName { lines.append("    name: \(YAMLScalarQuoting.scalar(wireName))") }
            if let description = event.description { lines.append("    description: \(YAMLScalarQuoting.scalar(description))") }
            if let consent = event.consent { lines.append("    consent: \(YAMLScalarQuoting.scalar(consent))") }
            if let message = event.deprecationMessage { lines.append("    deprecated: \(YAMLScalarQuoting.scalar(message))") }
            if !event.parameters.isEmpty {
                lines.append("    parameters:")
                lines += event.parameters.flatMap { property($0).map { "      " + $0 } }
            }
        }
        return lines
    }

    /// `key: type`, or a mapping with the type, description and constraints.
    private static func property(_ property: ImportedProperty) -> [String] {
        let key = YAMLScalarQuoting.scalar(property.key)
        let type = YAMLScalarQuoting.scalar(property.type.description)
        if property.isTypeOnly { return ["\(key): \(type)"] }
        var lines = ["\(key):", "  type: \(type)"]
        if let description = property.description { lines.append("  description: \(YAMLScalarQuoting.scalar(description))") }
        if let min = property.min { lines.append("  min: \(min.compactDescription)") }
        if let max = property.max { lines.append("  max: \(max.compactDescription)") }
        if let minLength = property.minLength { lines.append("  minLength: \(minLength)") }
        if let maxLength = property.maxLength { lines.append("  maxLength: \(maxLength)") }
        if let pattern = property.pattern { lines.append("  pattern: \(YAMLScalarQuoting.scalar(pattern))") }
        if property.isPII { lines.append("  pii: true") }
        if let values = property.enumValues {
            lines.append("  enum:")
            lines += values.map { "    - \(YAMLScalarQuoting.scalar($0))" }
        }
        return lines
    }
}
