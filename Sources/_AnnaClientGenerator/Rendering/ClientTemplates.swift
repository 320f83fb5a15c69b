/// A language's statements and expressions, one template a line (`store:
/// {target}.put({key}, {value})`), as Segment Typewriter keeps a few lines of
/// template per language: ``ClientWalk`` fills them with what it decided.
///
/// Holes are `{name}`; a `{` not followed by a name and `}` is text, and `\n` is a
/// line break. The text is read once, when a language's table is made, and each
/// template is filled in one pass, so that a value holding braces (a wire name
/// such as `{id}`) is never read as a hole.
struct ClientTemplates: Sendable {
    /// What a language writes, by what it is for.
    enum Key: String, CaseIterable, Sendable {
        /// Storing `{value}` under `{key}` in `{target}`.
        case store
        /// `{store}` when the app lets PII through, else the report that `{path}` was left out.
        case piiGuard
        /// `{statement}` only when `{access}` is set.
        case setGuard
        /// The local holding the checking context of `{call}`.
        case context
        /// A local, empty map named `{name}`.
        case map
        /// The payload's local.
        case payload
        /// A list's element in a conversion.
        case element
        /// A copy of `{list}`, sent as it is.
        case copyList
        /// `{list}` with `{value}` computed for each element.
        case mapList
        /// A doc comment's name for the parameter `{identifier}`.
        case parameterDoc
        /// Sending an event, a screen, `identify` or `group`: `{name}`, `{consent}`, `{call}`, `{argument}`;
        /// `{version}` is `, "1.0.0"`, the event's version as a further argument, in a versioned plan, else nothing.
        case sendEvent, sendScreen, sendTraits
        /// The identity parameters of `identify` and `group`.
        case identify, group
        /// The map of set globals, a setter's read of `{identifier}`, and the removal of `{key}` when `{access}` is null.
        case globals, globalAccess, removeGlobal
        /// What opens and closes the setters of the globals, and how deep they are indented.
        case globalsOpen, globalsClose, globalsDepth
        /// What opens and closes the screens' group.
        case screensOpen, screensClose
        /// The end of an event's or a screen's function.
        case eventClose, screenClose
        /// The first line of `identify` or `group`: `{call}`, `{identity}`, `{parameters}`.
        case traitsOpen
        /// A converter's map, its path parameter, its read of `{field}`, its end, and its statements' depth.
        case objectMap, pathParameter, fieldAccess, converterClose, converterDepth
        /// The conversions of `{element}`; `{path}` names it in a violation.
        case enumWire, iso8601, absoluteURL, uppercasedUUID, objectConversion
        /// The checks of `{element}` against `{min}`, `{max}`, `{minLength}`, `{maxLength}`, `{pattern}`.
        case integerCheck, doubleCheck, textCheck
        /// No value, for a constraint not set.
        case null
    }

    private var templates: [Key: Template]

    /// Reads a table: a line `key: template` for every ``Key``.
    init(_ text: String) {
        var templates: [Key: Template] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstRange(of: ": ") ?? (line.hasSuffix(":") ? line.index(before: line.endIndex)..<line.endIndex : nil),
                  let key = Key(rawValue: String(line[..<colon.lowerBound])) else {
                assertionFailure("not a template line: \(line)")
                continue
            }
            templates[key] = Template(line[colon.upperBound...])
        }
        assert(Set(templates.keys) == Set(Key.allCases), "templates missing: \(Set(Key.allCases).subtracting(templates.keys))")
        self.templates = templates
    }

    /// A template filled with `values`; a hole without a value is left empty.
    subscript(_ key: Key, _ values: KeyValuePairs<String, String> = [:]) -> String {
        templates[key]?.fill(values) ?? ""
    }

    /// Whether a conversion's template is its element as it is: nothing to convert.
    func isIdentity(_ key: Key) -> Bool {
        templates[key]?.isElement ?? false
    }

    /// A template read into text and holes.
    private struct Template: Sendable {
        enum Part: Sendable, Equatable {
            case text(String), hole(String)
        }

        let parts: [Part]

        init(_ source: Substring) {
            var parts: [Part] = []
            var text = ""
            var rest = String(source).replacing("\\n", with: "\n")[...]
            while let open = rest.firstIndex(of: "{") {
                text += rest[..<open]
                let name = rest[rest.index(after: open)...].prefix { $0.isLetter }
                let close = name.endIndex
                if !name.isEmpty, close < rest.endIndex, rest[close] == "}" {
                    if !text.isEmpty { parts.append(.text(text)) }
                    text = ""
                    parts.append(.hole(String(name)))
                    rest = rest[rest.index(after: close)...]
                } else {
                    text += "{"
                    rest = rest[rest.index(after: open)...]
                }
            }
            text += rest
            if !text.isEmpty { parts.append(.text(text)) }
            self.parts = parts
        }

        var isElement: Bool { parts == [.hole("element")] }

        func fill(_ values: KeyValuePairs<String, String>) -> String {
            var out = ""
            for part in parts {
                switch part {
                case .text(let text): out += text
                case .hole(let name): out += values.first { $0.key == name }?.value ?? ""
                }
            }
            return out
        }
    }
}
