import AnnaRules
import _AnnaGeneratorCore

/// The tracking plan as the inspector checks calls against it: the events, screens,
/// traits, group traits and globals of validated specs, indexed by the names sent,
/// each with where its spec declares it.
///
/// Built once from ``TrackingSpec``s, the generator's own validated model, so the
/// inspector reads a spec exactly as `anna lint` and the generated code do. Where
/// several specs declare the same name, the first spec given wins.
package struct InspectionPlan: Sendable {
    /// An event or a screen.
    package struct Declaration: Sendable {
        package var name: String
        /// `event` or `screen`.
        package var kind: String
        /// `deprecated:`'s message (empty for `deprecated: true`), if any.
        package var deprecation: String?
        /// Its properties, in file order.
        package var properties: [PropertyRule]
        package var location: SourceLocation
        /// The event's own version (`version:` under it, or 1.0.0).
        package var version: PlanVersion = .initial
    }

    /// One declared property and what a value of it must be.
    package struct PropertyRule: Sendable {
        package var name: String
        package var shape: ValueShape
        package var isArray: Bool
        package var isOptional: Bool
        package var constraints: ParameterConstraint
        /// The pattern compiled for the runtime's linear-time engine, if any.
        package var pattern: RegexProgram?
        package var isPII: Bool
        /// The type as the spec writes it: `[Product]?`.
        package var typeDescription: String
        package var location: SourceLocation
    }

    /// What one element of a property's value is.
    package enum ValueShape: Sendable {
        case string, int, double, bool, date, url, uuid
        /// An enum, by its index in ``InspectionPlan/enums``.
        case enumeration(Int)
        /// An object type, by its index in ``InspectionPlan/objects``.
        case object(Int)
    }

    /// A declared enum: its name and the values allowed.
    package struct EnumRule: Sendable {
        package var name: String
        package var values: Set<String>
        package var ordered: [String]
    }

    /// A declared object type and its properties.
    package struct ObjectRule: Sendable {
        package var name: String
        package var properties: [PropertyRule]
        package var location: SourceLocation
    }

    package private(set) var events: [String: Declaration] = [:]
    package private(set) var screens: [String: Declaration] = [:]
    package private(set) var traits: [String: PropertyRule] = [:]
    package private(set) var groupTraits: [String: PropertyRule] = [:]
    package private(set) var globals: [String: PropertyRule] = [:]
    package private(set) var enums: [EnumRule] = []
    package private(set) var objects: [ObjectRule] = []
    /// Events then screens, each in spec and file order: what coverage lists.
    package var declarationOrder: [(kind: String, name: String)] {
        eventOrder.map { ("event", $0) } + screenOrder.map { ("screen", $0) }
    }
    private var eventOrder: [String] = []
    private var screenOrder: [String] = []
    /// Where each spec's `events:` (or its first line) is: where an unknown event points.
    package private(set) var eventsSection: SourceLocation
    package private(set) var screensSection: SourceLocation
    package private(set) var traitsSection: SourceLocation
    package private(set) var groupTraitsSection: SourceLocation
    /// The spec files, in the order given.
    package private(set) var files: [String] = []

    /// How names reach the collector: as the spec writes them, or mapped as a
    /// provider's mapper maps them; the same choice, by the same rule, as the
    /// generated TypeScript and Kotlin clients make.
    package typealias Naming = WireNaming

    /// Indexes validated specs.
    /// - Parameter naming: How the client names what the specs declare.
    package init(specs: [TrackingSpec], naming: Naming = .spec) {
        let first = specs.first.map { SourceLocation(file: $0.file, line: 1, column: 1) } ?? SourceLocation(file: "", line: 1, column: 1)
        func section(_ key: String) -> SourceLocation {
            specs.lazy.compactMap { $0.keyLocations[key] }.first ?? first
        }
        eventsSection = section("events")
        screensSection = section("screens")
        traitsSection = section("traits")
        groupTraitsSection = section("groupTraits")
        for spec in specs {
            files.append(spec.file)
            var builder = SpecIndex(spec: spec, enumBase: enums.count, objectBase: objects.count, naming: naming)
            enums.append(contentsOf: builder.enumRules())
            objects.append(contentsOf: builder.objectRules())
            for (kind, list) in [("event", spec.events), ("screen", spec.screens)] {
                for event in list {
                    let name = naming(event.name)
                    let declaration = Declaration(
                        name: name, kind: kind, deprecation: event.deprecationMessage,
                        properties: event.parameters.map { builder.rule(for: $0) }, location: event.location, version: event.version)
                    if kind == "event", events[name] == nil {
                        events[name] = declaration
                        eventOrder.append(name)
                    } else if kind == "screen", screens[name] == nil {
                        screens[name] = declaration
                        screenOrder.append(name)
                    }
                }
            }
            for trait in spec.traits where traits[naming(trait.name)] == nil { traits[naming(trait.name)] = builder.rule(for: trait) }
            for trait in spec.groupTraits where groupTraits[naming(trait.name)] == nil { groupTraits[naming(trait.name)] = builder.rule(for: trait) }
            for global in spec.globals where globals[naming(global.name)] == nil { globals[naming(global.name)] = builder.rule(for: global) }
        }
    }
}

/// Resolves one spec's types to the plan's enum and object indexes.
private struct SpecIndex {
    let spec: TrackingSpec
    let enumBase: Int
    let objectBase: Int
    let naming: InspectionPlan.Naming
    var enumIndex: [String: Int] = [:]
    var objectIndex: [String: Int] = [:]

    init(spec: TrackingSpec, enumBase: Int, objectBase: Int, naming: InspectionPlan.Naming) {
        self.spec = spec
        self.naming = naming
        self.enumBase = enumBase
        self.objectBase = objectBase
        for (offset, type) in spec.types.enumerated() where enumIndex[type.name] == nil { enumIndex[type.name] = enumBase + offset }
        for (offset, type) in spec.objects.enumerated() where objectIndex[type.name] == nil { objectIndex[type.name] = objectBase + offset }
    }

    func enumRules() -> [InspectionPlan.EnumRule] {
        spec.types.map { type in
            let values = type.cases.map(\.rawValue)
            return InspectionPlan.EnumRule(name: type.name, values: Set(values), ordered: values)
        }
    }

    mutating func objectRules() -> [InspectionPlan.ObjectRule] {
        spec.objects.map { object in
            InspectionPlan.ObjectRule(name: object.name, properties: object.properties.map { rule(for: $0) }, location: object.location)
        }
    }

    func rule(for parameter: TrackingSpec.Parameter) -> InspectionPlan.PropertyRule {
        let shape: InspectionPlan.ValueShape = switch parameter.type.base {
        case .string: .string
        case .int: .int
        case .double: .double
        case .bool: .bool
        case .date: .date
        case .url: .url
        case .uuid: .uuid
        // Validated specs resolve every name; a name not found is checked as a string.
        case .named(let name): enumIndex[name].map { .enumeration($0) } ?? .string
        case .object(let name): objectIndex[name].map { .object($0) } ?? .string
        }
        return InspectionPlan.PropertyRule(
            name: naming(parameter.name), shape: shape, isArray: parameter.type.isArray, isOptional: parameter.type.isOptional,
            constraints: parameter.constraints, pattern: parameter.constraints.pattern.flatMap { try? RegexProgram($0) },
            isPII: parameter.isPII, typeDescription: parameter.type.description, location: parameter.location)
    }
}
