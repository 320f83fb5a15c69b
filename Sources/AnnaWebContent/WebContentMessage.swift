import Foundation

/// A message of format 1, as a page's generated web-view client posts it: one JSON
/// object per call, read strictly (every key known, every type as the format says).
///
/// ```json
/// {"anna":1,"type":"track","event":"orderPlaced","properties":{…},"naming":"spec","context":{"plan":{…}}}
/// {"anna":1,"type":"screen","name":"Cart","properties":{},"naming":"spec"}
/// {"anna":1,"type":"identify","userId":"u-1","traits":{…},"naming":"spec"}
/// {"anna":1,"type":"group","groupId":"g-1","traits":{…},"naming":"spec"}
/// {"anna":1,"type":"reset"}
/// {"anna":1,"type":"optOut","optedOut":true}
/// {"anna":1,"type":"consent","granted":["analytics"]}
/// ```
struct WebContentMessage: Sendable, Hashable {
    /// The names as the spec writes them, or in snake_case (`anna generate --naming snake_case`).
    enum Naming: String, Sendable, Hashable {
        case spec
        case snakeCase = "snake_case"
    }

    /// What the message asks for.
    enum Call: Sendable, Hashable {
        case track(event: String, properties: [String: JSONValue], plan: String?)
        case screen(name: String, properties: [String: JSONValue], plan: String?)
        /// `userID` `nil` when the page gave none (`null` or left out): the user id stays.
        case identify(userID: String?, traits: [String: JSONValue])
        case group(groupID: String, traits: [String: JSONValue])
        case reset
        case optOut(Bool)
        case consent([String])

        /// The command the app must allow, `nil` for events and screens.
        var command: WebContentCommand? {
            switch self {
            case .track, .screen: nil
            case .identify: .identify
            case .group: .group
            case .reset: .reset
            case .optOut: .optOut
            case .consent: .consent
            }
        }

        /// The event's or screen's name, or the command's, for refusals.
        var name: String {
            switch self {
            case .track(let event, _, _): event
            case .screen(let name, _, _): name
            case .identify: "identify"
            case .group: "group"
            case .reset: "reset"
            case .optOut: "optOut"
            case .consent: "consent"
            }
        }
    }

    var call: Call
    var naming: Naming

    /// The keys each type may hold besides `anna` and `type`.
    private static let keys: [String: Set<String>] = [
        "track": ["event", "properties", "naming", "context"],
        "screen": ["name", "properties", "naming", "context"],
        "identify": ["userId", "traits", "naming"],
        "group": ["groupId", "traits", "naming"],
        "reset": [],
        "optOut": ["optedOut"],
        "consent": ["granted"],
    ]

    /// Reads a message.
    /// - Throws: ``WebContentRefusal`` (`malformed`) naming what is wrong.
    init(json text: String) throws(WebContentRefusal) {
        guard let value = JSONValue(json: text) else {
            throw Self.malformed("the message is not JSON (RFC 8259, at most 64 levels deep, no duplicate keys)")
        }
        guard case .object(let object) = value else { throw Self.malformed("the message is not a JSON object") }
        guard object["anna"] == .int(1) else { throw Self.malformed("the message is not of format 1 (\"anna\":1)") }
        guard case .string(let type) = object["type"], let allowed = Self.keys[type] else {
            throw Self.malformed("the message's \"type\" is none of track, screen, identify, group, reset, optOut, consent")
        }
        for key in object.keys.sorted() where key != "anna" && key != "type" && !allowed.contains(key) {
            throw Self.malformed("a \(type) message has no key '\(key)'", name: type)
        }
        let naming: Naming
        switch object["naming"] {
        case nil: naming = .spec
        case .string(let text):
            guard let known = Naming(rawValue: text) else { throw Self.malformed("\"naming\" is spec or snake_case", name: type) }
            naming = known
        default: throw Self.malformed("\"naming\" is spec or snake_case", name: type)
        }
        self.naming = naming
        switch type {
        case "track":
            let event = try Self.string("event", in: object, type: type)
            call = .track(
                event: event, properties: try Self.object("properties", in: object, name: event),
                plan: try Self.planName(in: object, name: event))
        case "screen":
            let name = try Self.string("name", in: object, type: type)
            call = .screen(
                name: name, properties: try Self.object("properties", in: object, name: name),
                plan: try Self.planName(in: object, name: name))
        case "identify":
            let userID: String?
            switch object["userId"] {
            case nil, .null: userID = nil
            case .string(let text): userID = text
            default: throw Self.malformed("\"userId\" is a string or null", name: type)
            }
            call = .identify(userID: userID, traits: try Self.object("traits", in: object, name: type))
        case "group":
            call = .group(groupID: try Self.string("groupId", in: object, type: type), traits: try Self.object("traits", in: object, name: type))
        case "reset":
            call = .reset
        case "optOut":
            guard case .bool(let optedOut) = object["optedOut"] else { throw Self.malformed("\"optedOut\" is true or false", name: type) }
            call = .optOut(optedOut)
        default:
            guard case .array(let values) = object["granted"] else { throw Self.malformed("\"granted\" is a list of consent categories", name: type) }
            var categories: [String] = []
            for value in values {
                guard case .string(let category) = value else { throw Self.malformed("\"granted\" is a list of strings", name: type) }
                categories.append(category)
            }
            call = .consent(categories)
        }
    }

    private static func string(_ key: String, in object: [String: JSONValue], type: String) throws(WebContentRefusal) -> String {
        guard case .string(let text) = object[key] else { throw malformed("a \(type) message needs \"\(key)\", a string", name: type) }
        return text
    }

    /// An object, empty when left out.
    private static func object(_ key: String, in object: [String: JSONValue], name: String) throws(WebContentRefusal) -> [String: JSONValue] {
        switch object[key] {
        case nil: return [:]
        case .object(let fields): return fields
        default: throw malformed("\"\(key)\" is an object", name: name)
        }
    }

    /// The plan named in `context.plan.name`, if any; the context holds nothing else.
    private static func planName(in object: [String: JSONValue], name: String) throws(WebContentRefusal) -> String? {
        guard let context = object["context"] else { return nil }
        guard case .object(let fields) = context else { throw malformed("\"context\" is an object", name: name) }
        for key in fields.keys.sorted() where key != "plan" {
            throw malformed("\"context\" holds only \"plan\", not '\(key)'", name: name)
        }
        guard let plan = fields["plan"] else { return nil }
        guard case .object(let planFields) = plan else { throw malformed("\"context.plan\" is an object", name: name) }
        for (key, value) in planFields.sorted(by: { $0.key < $1.key }) {
            guard ["name", "version", "eventVersion", "branch"].contains(key) else {
                throw malformed("\"context.plan\" holds name, version, eventVersion and branch, not '\(key)'", name: name)
            }
            guard case .string = value else { throw malformed("\"context.plan.\(key)\" is a string", name: name) }
        }
        guard case .string(let planName) = planFields["name"] else { return nil }
        return planName
    }

    private static func malformed(_ message: String, name: String? = nil) -> WebContentRefusal {
        WebContentRefusal(.malformed, name: name, message: message)
    }
}
