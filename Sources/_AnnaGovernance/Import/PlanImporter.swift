import AnnaRules
import _AnnaGeneratorCore

/// `anna import`: a Segment tracking plan (JSON, as Segment's Public API or Config API
/// exports it) turned into an equivalent `.anna.yml`, with a located warning for each
/// part of the plan Anna cannot express.
public struct PlanImporter: Sendable {
    /// `namespace:` of the written spec, if any.
    public var namespace: String?
    /// The path to `anna.schema.json` written in the header, for editors.
    public var schemaPath: String

    /// What an import produced.
    public struct Result: Sendable {
        /// The spec's text.
        public var spec: String
        /// Warnings (a loss) and notes (a change that loses nothing), in the plan's order.
        public var diagnostics: [Diagnostic]
        /// Whether anything did not map: what `--strict` refuses.
        public var hasWarnings: Bool { diagnostics.contains { $0.severity == .warning } }
    }

    /// Creates an importer.
    /// - Parameters:
    ///   - namespace: `namespace:` of the written spec; a Swift identifier.
    ///   - schemaPath: The path to `anna.schema.json` for the header's `$schema`.
    public init(namespace: String? = nil, schemaPath: String = "anna.schema.json") {
        self.namespace = namespace
        self.schemaPath = schemaPath
    }

    /// Whether a namespace can be written: letters, digits and `_`, starting with a letter.
    /// - Parameter namespace: The proposed namespace.
    /// - Returns: `true` when `anna lint` accepts it.
    public static func isValidNamespace(_ namespace: String) -> Bool {
        guard let first = namespace.unicodeScalars.first, first.isASCIILetter else { return false }
        return namespace.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }

    /// Imports a plan.
    /// - Parameters:
    ///   - bytes: The plan file's contents.
    ///   - file: Its path, shown in diagnostics and named in the header.
    /// - Returns: The spec and every warning and note.
    /// - Throws: ``SpecError`` with a located error when the file is not JSON or not a tracking plan.
    public func importPlan(_ bytes: [UInt8], file: String) throws(SpecError) -> Result {
        let root = try JSONReader.parse(bytes, file: file)
        let reader = try TrackingPlanReader(root)
        var importer = SchemaImporter()
        importer.diagnostics = reader.diagnostics
        var spec = ImportedSpec(planName: reader.planName, namespace: namespace)
        // The provider profiles `anna export` wrote beside the rules.
        spec.providers = root["x-anna-providers"]?.elements?.compactMap(\.string).filter(PlanImporter.isValidNamespace) ?? []
        var events = ImportNameScope(word: "event", prefix: "event", reserved: SwiftNaming.reservedEventNames, reservedSuffix: "Event")
        var screens = ImportNameScope(word: "screen", prefix: "screen", reserved: SwiftNaming.reservedEventNames, reservedSuffix: "Screen")
        for rule in reader.rules {
            switch rule.kind {
            case .track, .screen:
                let isScreen = rule.kind == .screen
                let claim = isScreen ? screens.claim(rule.name) : events.claim(rule.name)
                let word = rule.kind.rawValue == "track" ? "event" : "screen"
                if claim.converted {
                    if isScreen {
                        importer.note("screen '\(rule.name)' is written as '\(claim.key)' with name: '\(rule.name)', so it is still sent as '\(rule.name)'\(claim.collision.map { " (\($0))" } ?? "")", at: rule.nameLocation)
                    } else if let collision = claim.collision {
                        importer.warning("event '\(rule.name)' is written as '\(claim.key)' and sent under that name: \(collision)", at: rule.nameLocation)
                    } else {
                        importer.warning("event name '\(rule.name)' is not a valid Anna name (ASCII letters, digits, spaces, '_', '-', '.', starting with a letter); it is written as '\(claim.key)' and sent under that name", at: rule.nameLocation)
                    }
                }
                let typeName = SwiftNaming.upperCamelCase(claim.key)
                let parameters = importer.properties(
                    of: rule.schema, owner: .event(typeName: typeName), word: "parameter", context: "\(word) '\(rule.name)'")
                var event = ImportedEvent(
                    key: claim.key, wireName: isScreen && claim.converted ? rule.name : nil,
                    description: rule.description, parameters: parameters)
                event.deprecationMessage = rule.deprecationMessage ?? rule.deprecatedAt.map { "Deprecated in the Segment tracking plan on \($0)." }
                event.consent = rule.consent.flatMap { $0 == "analytics" ? nil : $0 }
                if isScreen { spec.screens.append(event) } else { spec.events.append(event) }
            case .identify:
                spec.traits += importer.properties(
                    of: rule.schema, owner: .trait(typeName: "User"), word: "trait", context: "the identify traits", requiredIsKept: false)
            case .group:
                spec.groupTraits += importer.properties(
                    of: rule.schema, owner: .trait(typeName: "Group"), word: "group trait", context: "the group traits", requiredIsKept: false)
            }
        }
        spec.types = importer.types
        spec.globals = importer.globals
        let text = SpecYAMLWriter.render(spec, source: Self.fileName(file), schemaPath: schemaPath)
        let diagnostics = importer.diagnostics.enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map { Self.oneLine($0.element) }
        return Result(spec: text, diagnostics: diagnostics)
    }

    /// A diagnostic is one line that editors place: names from the plan may hold line
    /// breaks and invisible characters, which are written as `\u{…}`.
    private static func oneLine(_ diagnostic: Diagnostic) -> Diagnostic {
        guard diagnostic.message.unicodeScalars.contains(where: SwiftLiteral.needsEscape) else { return diagnostic }
        var message = ""
        for scalar in diagnostic.message.unicodeScalars {
            if SwiftLiteral.needsEscape(scalar) {
                message += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                message.unicodeScalars.append(scalar)
            }
        }
        var result = diagnostic
        result.message = message
        return result
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
