import AnnaRules
import _AnnaGeneratorCore

/// Translates a validated ``TrackingSpec`` into the language-neutral ``ClientModel``
/// the TypeScript and Kotlin renderers write from.
package struct ClientTranslator: Sendable {
    /// How names reach the collector.
    package var naming: WireNaming

    package init(naming: WireNaming = .spec) {
        self.naming = naming
    }

    /// The client model of a spec.
    /// - Parameter spec: A spec without errors.
    /// - Returns: Its model.
    package func translate(_ spec: TrackingSpec) -> ClientModel {
        var enumIndex: [String: Int] = [:]
        for (index, type) in spec.types.enumerated() { enumIndex[type.name] = index }
        var objectIndex: [String: Int] = [:]
        for (index, object) in spec.objects.enumerated() { objectIndex[object.name] = index }
        func property(_ parameter: TrackingSpec.Parameter, optional: Bool? = nil) -> ClientModel.Property {
            let type: ClientModel.ClientType
            switch parameter.type.base {
            case .string: type = .string
            case .int: type = .int
            case .double: type = .double
            case .bool: type = .bool
            case .date: type = .date
            case .url: type = .url
            case .uuid: type = .uuid
            case .named(let name): type = enumIndex[name].map(ClientModel.ClientType.enumeration) ?? .string
            case .object(let name): type = objectIndex[name].map(ClientModel.ClientType.object) ?? .string
            }
            return ClientModel.Property(
                identifier: Self.identifier(parameter.swiftName), wireName: naming(parameter.name),
                description: parameter.description, type: type, isArray: parameter.type.isArray,
                isOptional: optional ?? parameter.type.isOptional, constraints: parameter.constraints,
                isPII: parameter.isPII, location: parameter.location)
        }
        func call(_ event: TrackingSpec.Event) -> ClientModel.Call {
            ClientModel.Call(
                identifier: Self.identifier(event.swiftName), wireName: naming(event.name),
                description: event.description, consent: event.consent, deprecation: event.deprecationMessage,
                properties: event.parameters.map { property($0) }, version: event.version.description, location: event.location)
        }
        return ClientModel(
            specFileName: String(spec.file.split(separator: "/").last ?? Substring(spec.file)),
            clientName: SwiftNaming.upperCamelCase(spec.namespace ?? spec.baseName) + "Analytics",
            enums: spec.types.map { type in
                ClientModel.Enumeration(
                    identifier: Self.identifier(type.swiftName), description: type.description,
                    cases: type.cases.map { ClientModel.EnumerationCase(identifier: Self.identifier($0.swiftName), wire: $0.rawValue) })
            },
            objects: spec.objects.map { object in
                ClientModel.Object(
                    identifier: Self.identifier(object.swiftName), description: object.description,
                    properties: object.properties.map { property($0) })
            },
            events: spec.events.map(call),
            screens: spec.screens.map(call),
            traits: spec.traits.map { property($0, optional: true) },
            groupTraits: spec.groupTraits.map { property($0, optional: true) },
            globals: spec.globals.map { property($0, optional: true) },
            plan: spec.version.map { ClientModel.Plan(name: spec.planName, version: $0.description) })
    }

    /// A Swift identifier as the other languages start from it: without backticks,
    /// and a nested type's name flattened (`UserTrait.LoyaltyTier` → `UserTraitLoyaltyTier`).
    static func identifier(_ swiftName: String) -> String {
        guard swiftName.utf8.contains(where: { $0 == UInt8(ascii: "`") || $0 == UInt8(ascii: ".") }) else { return swiftName }
        return String(swiftName.filter { $0 != "`" && $0 != "." })
    }
}
