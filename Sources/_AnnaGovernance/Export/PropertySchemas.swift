import AnnaRules
import _AnnaGeneratorCore

/// Translates a spec's parameters into JSON Schema, as the inspector checks them
/// (`CallChecker`): a required parameter must be present and not null, an optional
/// one may be absent or null, a PII parameter is never required (providers without
/// `receivesPII` never see it), list elements are never null, and an object allows
/// only its declared properties.
///
/// Two dialects share it: Segment's rules say `date`, `url` and `uuid` with `format`
/// alone, the only form `anna import` reads back; Iglu's schemas add a `pattern` the
/// inspector's own rule for each, since validators check `format` only on request.
/// Named types carry their name as `title`, which `anna import` uses for the type.
struct PropertySchemas {
    /// Which engine reads the schemas.
    enum Dialect { case segment, iglu }

    var spec: TrackingSpec
    var dialect: Dialect

    /// The `properties`, `required` and `additionalProperties` of an object whose
    /// fields are `parameters` (plus `extra`, never required, for globals).
    func object(_ parameters: [TrackingSpec.Parameter], extra: [TrackingSpec.Parameter] = [], requiresAny: Bool = true) -> [String: ExportJSON] {
        var properties: [String: ExportJSON] = [:]
        var required: [ExportJSON] = []
        for parameter in extra where !parameters.contains(where: { $0.name == parameter.name }) {
            guard case .object(var global) = schema(of: parameter) else { continue }
            // `anna import` reads it back as a global property, not a parameter.
            global["x-anna-global"] = .bool(true)
            properties[parameter.name] = .object(global)
        }
        for parameter in parameters {
            properties[parameter.name] = schema(of: parameter)
            guard requiresAny, !parameter.type.isOptional else { continue }
            if !parameter.isPII {
                required.append(.string(parameter.name))
            } else if case .object(var pii)? = properties[parameter.name] {
                // Required by the spec, for `anna import`; not by the schema, as providers
                // without receivesPII never receive it.
                pii["x-anna-required"] = .bool(true)
                properties[parameter.name] = .object(pii)
            }
        }
        var result: [String: ExportJSON] = ["type": .string("object"), "properties": .object(properties), "additionalProperties": .bool(false)]
        if !required.isEmpty { result["required"] = .array(required) }
        return result
    }

    /// One parameter's schema: its type (with `null` when optional), constraints,
    /// description and extension keys.
    func schema(of parameter: TrackingSpec.Parameter) -> ExportJSON {
        var element = elementSchema(parameter)
        var result: [String: ExportJSON]
        if parameter.type.isArray {
            result = ["type": .string("array"), "items": .object(element)]
        } else {
            result = element
            element = [:]
        }
        if parameter.type.isOptional { result = Self.allowingNull(result) }
        if let description = parameter.description { result["description"] = .string(description) }
        if parameter.isPII { result["x-anna-pii"] = .bool(true) }
        if let dataType = parameter.dataType { result["x-anna-data-type"] = .string(dataType) }
        return .object(result)
    }

    /// `type: T` becomes `type: [T, "null"]`, and an enum lists `null` too, as the
    /// `enum` keyword applies to every value.
    private static func allowingNull(_ schema: [String: ExportJSON]) -> [String: ExportJSON] {
        var result = schema
        if case .string(let type)? = schema["type"] { result["type"] = .array([.string(type), .string("null")]) }
        if case .array(let values)? = schema["enum"] { result["enum"] = .array(values + [.null]) }
        return result
    }

    private func elementSchema(_ parameter: TrackingSpec.Parameter) -> [String: ExportJSON] {
        let constraints = parameter.constraints
        var result: [String: ExportJSON]
        switch parameter.type.base {
        case .string:
            result = ["type": .string("string")]
            if let minLength = constraints.minLength { result["minLength"] = .number(Double(minLength)) }
            if let maxLength = constraints.maxLength { result["maxLength"] = .number(Double(maxLength)) }
            if let pattern = constraints.pattern { result["pattern"] = .string(pattern) }
        case .int, .double:
            result = ["type": .string(parameter.type.base == .int ? "integer" : "number")]
            if let min = constraints.min { result["minimum"] = .number(min) }
            if let max = constraints.max { result["maximum"] = .number(max) }
        case .bool:
            result = ["type": .string("boolean")]
        case .date:
            result = formatted("date-time", pattern: Self.dateTimePattern)
        case .url:
            result = formatted("uri", pattern: Self.absoluteURLPattern)
        case .uuid:
            result = formatted("uuid", pattern: Self.uuidPattern)
        case .named(let name):
            let cases = spec.types.first { $0.name == name }?.cases ?? []
            result = ["type": .string("string"), "enum": .array(cases.map { .string($0.rawValue) })]
            // An inline enum is named after its owner, which import derives again.
            if constraints.allowedValues == nil { result["title"] = .string(name) }
        case .object(let name):
            let object = spec.objects.first { $0.name == name }
            result = self.object(object?.properties ?? [])
            result["title"] = .string(name)
            // The parameter's own description, when it has one, takes the place: one schema holds one.
            if let description = object?.description { result["description"] = .string(description) }
        }
        return result
    }

    private func formatted(_ format: String, pattern: String) -> [String: ExportJSON] {
        var result: [String: ExportJSON] = ["type": .string("string"), "format": .string(format)]
        if dialect == .iglu { result["pattern"] = .string(pattern) }
        return result
    }

    /// The inspector's date-times: RFC 3339, optional fraction, `Z` or `±hh:mm` (`ISO8601.isValid`).
    static let dateTimePattern =
        "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"
    /// The inspector's absolute URLs: a scheme, a colon, something after it, no space.
    static let absoluteURLPattern = "^[A-Za-z][A-Za-z0-9+.-]*:[^ ]+$"
    /// The inspector's UUIDs: 8-4-4-4-12 hexadecimal digits, either case.
    static let uuidPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
}
