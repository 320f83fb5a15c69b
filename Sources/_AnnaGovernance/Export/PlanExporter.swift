import AnnaRules
import _AnnaGeneratorCore

/// `anna export`: the plan in the forms the engines that check events server-side
/// read.
///
/// - ``segmentPlan(_:)``: Segment's tracking-plan rules in the Public API's form
///   (`{"rules": [{key, type, version, jsonSchema}]}`), which Segment Protocols takes
///   and `anna import` reads back.
/// - ``igluSchemas(_:vendor:)``: one self-describing JSON Schema per event version,
///   at Iglu's path `schemas/VENDOR/NAME/jsonschema/MODEL-REVISION-ADDITION`.
///
/// Both say each constraint as a schema keyword, as the inspector checks it, and add
/// documented extension keys (`x-anna-pii`, `x-anna-consent`, `x-anna-data-type`,
/// `x-anna-event`, `x-anna-deprecated`) that validators ignore. Output is JSON with
/// sorted keys, the same bytes for the same plan.
public struct PlanExporter: Sendable {
    /// A file to write: its path relative to the output folder, and its contents.
    public struct File: Sendable, Hashable {
        /// The path relative to the output folder.
        public var path: String
        /// The JSON text.
        public var contents: String

        /// Creates a file.
        /// - Parameters:
        ///   - path: The path relative to the output folder.
        ///   - contents: The JSON text.
        public init(path: String, contents: String) {
            self.path = path
            self.contents = contents
        }
    }

    /// Why an export cannot be written.
    public struct ExportError: Error, Sendable, CustomStringConvertible {
        /// What is wrong and what to do about it.
        public var description: String
    }

    /// The meta-schema every Iglu schema declares (draft-04 with `self`).
    public static let igluMetaSchema = "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#"

    /// Creates an exporter.
    public init() {}

    /// Whether a vendor can be written into Iglu's path and `self`: letters, digits,
    /// `.`, `-` and `_` (Iglu's own rule), such as `com.example`.
    /// - Parameter vendor: The proposed vendor.
    /// - Returns: `true` when an Iglu registry accepts it.
    public static func isValidVendor(_ vendor: String) -> Bool {
        !vendor.isEmpty && vendor.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || "._-".unicodeScalars.contains($0) }
    }

    /// Segment's tracking-plan rules for the specs: a `TRACK` rule per event, a
    /// `SCREEN` rule per screen, and one `IDENTIFY` and `GROUP` rule for the traits.
    /// A rule's `version` is its event's MAJOR version. Globals are declared, never
    /// required, on every event and screen, as the apps send them with each.
    /// - Parameter specs: Validated specs, in order.
    /// - Returns: The plan's JSON text.
    package func segmentPlan(_ specs: [TrackingSpec]) -> String {
        var rules: [ExportJSON] = []
        var traits: [TrackingSpec.Parameter] = []
        var groupTraits: [TrackingSpec.Parameter] = []
        var planVersion: PlanVersion?
        for spec in specs {
            let schemas = PropertySchemas(spec: spec, dialect: .segment)
            for (kind, events) in [("TRACK", spec.events), ("SCREEN", spec.screens)] {
                for event in events {
                    let payload = schemas.object(event.parameters, extra: spec.globals)
                    var jsonSchema: [String: ExportJSON] = [
                        "$schema": .string("http://json-schema.org/draft-07/schema#"),
                        "type": .string("object"),
                        "properties": .object(["context": .object([:]), "traits": .object([:]), "properties": .object(payload)]),
                    ]
                    Self.annotate(&jsonSchema, event: event)
                    var rule: [String: ExportJSON] = [
                        "key": .string(event.name), "type": .string(kind), "version": .number(Double(event.version.major)),
                        "jsonSchema": .object(jsonSchema),
                    ]
                    if let description = event.description { rule["description"] = .string(description) }
                    rules.append(.object(rule))
                }
            }
            traits += spec.traits.filter { trait in !traits.contains { $0.name == trait.name } }
            groupTraits += spec.groupTraits.filter { trait in !groupTraits.contains { $0.name == trait.name } }
            if let version = spec.version { planVersion = max(planVersion ?? version, version) }
        }
        // Traits of every spec in one rule each, with every spec's types in reach.
        if var merged = specs.first {
            merged.objects = specs.flatMap(\.objects)
            merged.types = specs.flatMap(\.types)
            let schemas = PropertySchemas(spec: merged, dialect: .segment)
            for (kind, declared) in [("IDENTIFY", traits), ("GROUP", groupTraits)] where !declared.isEmpty {
                // Anna never requires a trait: an app sends those it knows.
                let jsonSchema: [String: ExportJSON] = [
                    "$schema": .string("http://json-schema.org/draft-07/schema#"),
                    "type": .string("object"),
                    "properties": .object(["context": .object([:]), "traits": .object(schemas.object(declared, requiresAny: false)), "properties": .object([:])]),
                ]
                rules.append(.object(["key": .string(kind.lowercased()), "type": .string(kind), "version": .number(1), "jsonSchema": .object(jsonSchema)]))
            }
        }
        var plan: [String: ExportJSON] = ["rules": .array(rules)]
        var providers: [String] = []
        for name in specs.flatMap({ $0.providers.map(\.name) }) where !providers.contains(name) { providers.append(name) }
        if !providers.isEmpty { plan["x-anna-providers"] = .array(providers.map { .string($0) }) }
        if let planVersion { plan["x-anna-plan-version"] = .string(planVersion.description) }
        return ExportJSON.object(plan).rendered
    }

    /// One self-describing JSON Schema per event version, at Iglu's paths. The same
    /// event and version in two specs (released versions of a plan side by side) is
    /// written once when both say the same, and refused when they differ.
    /// - Parameters:
    ///   - specs: Validated specs, in order.
    ///   - vendor: The schemas' vendor, such as `com.example`.
    /// - Returns: The files, by path.
    /// - Throws: ``ExportError`` for a bad vendor, two events whose names give the same
    ///   Iglu name, or one event version declared two ways.
    package func igluSchemas(_ specs: [TrackingSpec], vendor: String) throws(ExportError) -> [File] {
        guard Self.isValidVendor(vendor) else {
            throw ExportError(description: "vendor '\(vendor)' cannot be an Iglu vendor; use letters, digits, '.', '-' and '_', such as com.example")
        }
        var files: [String: (contents: String, event: String, file: String)] = [:]
        var owners: [String: String] = [:]
        for spec in specs {
            let schemas = PropertySchemas(spec: spec, dialect: .iglu)
            for event in spec.events {
                let name = Self.igluName(event.name)
                if let other = owners[name], other != event.name {
                    throw ExportError(description: "events '\(other)' and '\(event.name)' both become the Iglu name '\(name)'; rename one")
                }
                owners[name] = event.name
                var schema = schemas.object(event.parameters, extra: spec.globals)
                schema["$schema"] = .string(Self.igluMetaSchema)
                schema["self"] = .object([
                    "vendor": .string(vendor), "name": .string(name), "format": .string("jsonschema"),
                    "version": .string(event.version.schemaVer),
                ])
                if let description = event.description { schema["description"] = .string(description) }
                if name != event.name { schema["x-anna-event"] = .string(event.name) }
                Self.annotate(&schema, event: event)
                let path = "schemas/\(vendor)/\(name)/jsonschema/\(event.version.schemaVer)"
                let contents = ExportJSON.object(schema).rendered
                if let existing = files[path] {
                    guard existing.contents == contents else {
                        throw ExportError(description: "\(spec.file): event '\(event.name)' version \(event.version) differs from its declaration in \(existing.file); give the changed event a new version")
                    }
                    continue
                }
                files[path] = (contents, event.name, spec.file)
            }
        }
        return files.keys.sorted().map { File(path: $0, contents: files[$0]!.contents) }
    }

    /// The longest Iglu name written whole: a name is a folder, and file systems
    /// refuse names over 255 bytes.
    static let maximumNameLength = 128

    /// An Iglu name (letters, digits, `-`, `_`): the event's name with every other
    /// character written as `_`, `Order Completed` → `Order_Completed`. A longer name
    /// than ``maximumNameLength`` keeps its first 111 characters, then `_` and 16
    /// hexadecimal digits of its FNV-1a hash, so that two long names stay apart.
    static func igluName(_ name: String) -> String {
        let written = String(String.UnicodeScalarView(name.unicodeScalars.map { $0.isASCIILetter || $0.isASCIIDigit || $0 == "-" || $0 == "_" ? $0 : "_" }))
        guard written.unicodeScalars.count > maximumNameLength else { return written }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(written.prefix(maximumNameLength - 17)) + "_" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func annotate(_ schema: inout [String: ExportJSON], event: TrackingSpec.Event) {
        schema["x-anna-consent"] = .string(event.consent)
        if let message = event.deprecationMessage { schema["x-anna-deprecated"] = .string(message.isEmpty ? "deprecated" : message) }
    }
}
