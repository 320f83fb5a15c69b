import AnnaRules
import Foundation
import _AnnaGeneratorCore

/// Finds the rules of a Segment tracking plan in either form Segment's APIs export:
///
/// - the Public API's (`GET /tracking-plans/{id}/rules`, read by Typewriter 8 and
///   later): `rules` is an array of `{key, type, version, jsonSchema}`, the schema
///   wrapping event properties in `properties.properties` and traits in
///   `properties.traits`; Typewriter 8's own `plan.json` has already unwrapped them
///   and says so with `jsonSchema.eventMetadata`;
/// - the Config API's (v1beta, read by Typewriter 7): `rules` is an object with
///   `events: [{name, description, version, rules}]`, `identify`, `group` and `global`,
///   each rule a JSON Schema of the whole message.
///
/// - Typewriter's local tracking plans (its `examples/local-tracking-plans/`): the
///   Config API's rules object itself at the top level, `{events: [{name, rules}],
///   identify_traits, group_traits}`, the traits `null`, `[]` or a JSON Schema.
///
/// Either API's form may sit under `data`, `trackingPlan` or `tracking_plan`, as API responses do.
struct TrackingPlanReader {
    /// One rule: an event, a screen, the identify traits or the group traits.
    struct Rule {
        enum Kind: String { case track, screen, identify, group }
        var kind: Kind
        var name: String
        var nameLocation: SourceLocation
        var description: String?
        /// The JSON Schema of the properties (or traits): `{properties, required}`.
        var schema: JSONNode?
        var version: Double
        /// When the Public API says the rule is deprecated (`deprecatedAt` after year 1, its "never").
        var deprecatedAt: String? = nil
        /// `x-anna-deprecated` and `x-anna-consent` of the rule's schema, as `anna export` writes them.
        var deprecationMessage: String? = nil
        var consent: String? = nil
    }

    var planName: String?
    var rules: [Rule] = []
    var diagnostics: [Diagnostic] = []

    /// Reads the plan; throws a located error when the document is not a plan at all.
    init(_ root: JSONNode) throws(SpecError) {
        var node = root
        guard root.members != nil else {
            throw SpecError(diagnostics: [.error("a Segment tracking plan is a JSON object, not \(root.kindDescription)", at: root.location)])
        }
        for key in ["data", "trackingPlan", "tracking_plan"] {
            if let inner = node[key], inner.members != nil { node = inner }
        }
        for key in ["trackingPlan", "tracking_plan"] {
            if let inner = node[key], inner.members != nil { node = inner }
        }
        planName = node["display_name"]?.string ?? node["name"]?.string
        switch node["rules"]?.content {
        case .array(let items): readPublicAPI(items)
        case .object: readConfigAPI(node["rules"]!)
        case nil where node["events"]?.elements != nil: readConfigAPI(node)
        default:
            throw SpecError(diagnostics: [.error(
                "no tracking plan rules found: expected 'rules' as the Segment Public API returns them (an array of {key, type, jsonSchema}) or as the Config API returns them ({events: [...], identify, group}), or a Typewriter local tracking plan ({events: [{name, rules}], identify_traits, group_traits}); export the plan with one of them",
                at: (node["rules"] ?? node).location)])
        }
        keepLatestVersions()
    }

    private mutating func readPublicAPI(_ items: [JSONNode]) {
        for item in items {
            guard item.members != nil else {
                diagnostics.append(.warning("a rule is \(item.kindDescription), not an object; it is skipped", at: item.location))
                continue
            }
            let typeName = item["type"]?.string?.uppercased() ?? "TRACK"
            let kind: Rule.Kind
            switch typeName {
            case "TRACK": kind = .track
            case "SCREEN": kind = .screen
            case "IDENTIFY": kind = .identify
            case "GROUP": kind = .group
            case "PAGE":
                diagnostics.append(.warning("page rules are not imported: Anna's apps report screens, not web pages", at: item.location))
                continue
            case "COMMON":
                warnAboutCommonRule(item["jsonSchema"], at: item.location)
                continue
            default:
                diagnostics.append(.warning("rule type '\(typeName)' is unknown; the rule is skipped", at: item["type"]?.location ?? item.location))
                continue
            }
            let schema = item["jsonSchema"]
            let name = item["key"]?.string ?? schema?["eventMetadata"]?["name"]?.string ?? kind.rawValue
            if (kind == .track || kind == .screen), item["key"]?.string == nil {
                diagnostics.append(.warning("a \(kind.rawValue) rule has no 'key'; it is skipped", at: item.location))
                continue
            }
            let description = Self.description(item["description"]) ?? schema.flatMap { Self.description($0["description"]) }
            let deprecatedAt = item["deprecatedAt"]?.string.flatMap { $0.hasPrefix("0001-") || $0.isEmpty ? nil : $0 }
            rules.append(Rule(
                kind: kind, name: name, nameLocation: item["key"]?.location ?? item.location, description: description,
                schema: Self.payload(of: schema, kind: kind), version: item["version"]?.number ?? 1, deprecatedAt: deprecatedAt,
                deprecationMessage: schema?["x-anna-deprecated"]?.string, consent: schema?["x-anna-consent"]?.string))
        }
    }

    private mutating func readConfigAPI(_ node: JSONNode) {
        for item in node["events"]?.elements ?? [] {
            guard let name = item["name"]?.string else {
                diagnostics.append(.warning("an event rule has no 'name'; it is skipped", at: item.location))
                continue
            }
            let schema = item["rules"]
            let description = Self.description(item["description"]) ?? schema.flatMap { Self.description($0["description"]) }
            rules.append(Rule(
                kind: .track, name: name, nameLocation: item["name"]?.location ?? item.location, description: description,
                schema: Self.payload(of: schema, kind: .track), version: item["version"]?.number ?? 1))
        }
        for (key, traitsKey, kind) in [("identify", "identify_traits", Rule.Kind.identify), ("group", "group_traits", .group)] {
            // A local plan's traits are a schema under `identify_traits`; `null` or `[]` declare none.
            let traits = node[traitsKey].flatMap { $0.members?.isEmpty == false ? $0 : nil }
            guard let schema = node[key].flatMap({ $0.members?.isEmpty == false ? $0 : nil }) ?? traits else {
                if let list = node[traitsKey], list.elements?.isEmpty == false {
                    diagnostics.append(.warning("'\(traitsKey)' is a list, whose shape is not documented, so it is not imported; write the traits as a JSON Schema there or in '\(key)'", at: list.location))
                }
                continue
            }
            if let traits, traits.location != schema.location {
                diagnostics.append(.warning("'\(traitsKey)' is not imported: '\(key)' declares the traits; keep them in one of the two", at: traits.location))
            }
            rules.append(Rule(
                kind: kind, name: key, nameLocation: schema.location, description: nil,
                schema: Self.payload(of: schema, kind: kind), version: 1))
        }
        warnAboutCommonRule(node["global"], at: node["global"]?.location ?? node.location)
    }

    /// A rule for every message (`COMMON`, or the Config API's `global`) mostly checks
    /// `context`, which Anna fills itself; anything it declares is reported as not imported.
    private mutating func warnAboutCommonRule(_ schema: JSONNode?, at location: SourceLocation) {
        guard let schema, let sections = schema["properties"]?.members else { return }
        for section in sections where section.value.members?.contains(where: { $0.key != "type" }) == true {
            diagnostics.append(.warning("the rule for every message declares '\(section.key)'; Anna has no such rule, so it is not imported (declare global properties under globals:)", at: section.keyLocation))
        }
    }

    /// The schema of a rule's properties (or traits), unwrapped from the message schema.
    static func payload(of schema: JSONNode?, kind: Rule.Kind) -> JSONNode? {
        guard let schema else { return nil }
        if schema["eventMetadata"] != nil { return schema }
        guard let sections = schema["properties"], sections.members != nil,
              sections["properties"] != nil || sections["traits"] != nil || sections["context"] != nil else {
            return schema
        }
        return sections[kind == .identify || kind == .group ? "traits" : "properties"]
    }

    private static func description(_ node: JSONNode?) -> String? {
        guard let text = node?.string, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }

    /// Typewriter keeps the latest version of each event; so does the import, with a note.
    private mutating func keepLatestVersions() {
        var latest: [String: Int] = [:]
        var kept: [Rule] = []
        for rule in rules {
            let id = "\(rule.kind.rawValue)\u{0}\(rule.name)"
            guard let index = latest[id] else {
                latest[id] = kept.count
                kept.append(rule)
                continue
            }
            let older = kept[index].version > rule.version ? rule : kept[index]
            if rule.version > kept[index].version { kept[index] = rule }
            diagnostics.append(Diagnostic(.note, "version \(older.version.compactDescription) of \(rule.kind.rawValue) '\(rule.name)' is not imported: a later version is", at: older.nameLocation))
        }
        rules = kept
    }
}
