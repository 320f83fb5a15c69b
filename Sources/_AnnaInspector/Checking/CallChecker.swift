import AnnaRules
import _AnnaGeneratorCore

/// Checks one call of Segment's HTTP Tracking API against the plan: the event,
/// screen or traits it names, each property's presence, JSON type at any depth, enum
/// value and constraints (with the runtime's own rules and pattern engine), and the
/// call shape Anna sends (`messageId`, `timestamp`, an id, `context`).
///
/// With several plan versions loaded, a call is checked against the version its
/// `context.plan` names (see ``PlanVersions``).
///
/// Immutable and `Sendable`: one checker serves every connection.
package struct CallChecker: Sendable {
    /// The newest plan: the current specs, merged.
    package let plan: InspectionPlan
    /// Every version loaded; without versions, only ``plan``.
    package let versions: PlanVersions
    /// Each version's checker, by its index in ``PlanVersions/versions``, in a class: a
    /// call is checked in place, without copying the plan's tables (and retaining each) per call.
    private let checkers: [VersionChecker]

    /// One version's checker, built once and shared.
    private final class VersionChecker: Sendable {
        let checker: CallChecker
        init(_ plan: InspectionPlan) { checker = CallChecker(plan: plan) }
    }

    /// A checker of one plan without versions.
    package init(plan: InspectionPlan) {
        self.plan = plan
        self.versions = PlanVersions(plan: plan)
        self.checkers = []
    }

    /// A checker of every version loaded.
    package init(versions: PlanVersions) {
        self.plan = versions.newest
        self.versions = versions
        self.checkers = versions.versions.map { VersionChecker($0.plan) }
    }

    /// What a call is and what is wrong with it.
    package struct Result: Sendable {
        /// `track`, `screen`, `page`, `identify`, `group`, `alias`, or what arrived.
        package var type: String
        /// The event or screen name; the user or group id for the other calls.
        package var name: String
        package var findings: [Finding]
        /// Whether the plan checked against declares the event or screen (other calls count as declared).
        package var declared = true
        /// The version the call was checked against, as reports group by it: `2.3.0`,
        /// `unversioned`, `9.9.9 (unknown)`; `nil` when no spec declares a version.
        package var version: String?
    }

    /// The call types the inspector knows.
    package static let types: Set<String> = ["track", "screen", "page", "identify", "group", "alias"]

    /// The largest call Segment's Tracking API takes, in bytes of JSON: it refuses a
    /// larger one (a batch holds many, up to 500 KB in all).
    package static let maximumCallBytes = 32 * 1024

    /// Checks one call.
    /// - Parameters:
    ///   - call: The call's JSON.
    ///   - type: The type the endpoint implies (`/v1/track` → `track`), or `nil` in a batch.
    ///   - size: The call's size in bytes of JSON as sent, when known.
    package func check(_ call: JSONValue, type implied: String? = nil, size: Int? = nil) -> Result {
        guard versions.isVersioned else { return checkAgainstPlan(call, type: implied, size: size) }
        var result: Result
        var note: Finding?
        switch versions.match(call) {
        case .known(let index):
            result = checkers[index].checker.checkAgainstPlan(call, type: implied, size: size)
            result.version = versions.versions[index].label
            let kind = result.type == "track" ? "event" : "screen"
            if !versions.versions[index].isNewest, Self.namedTypes.contains(result.type),
                let reason = versions.versions[index].superseded(kind: kind, name: result.name) {
                let version = versions.versions[index]
                note = Finding(
                    .information, .supersededVersion, call: Self.label(result), path: "context.plan.version",
                    expected: "the newest version of \(kind) \(JSONValue.quoted(result.name))", actual: "version \(version.version), \(reason)",
                    at: (kind == "event" ? version.plan.events[result.name] : version.plan.screens[result.name])?.location)
            }
        case .unknown(let name, let version):
            // No plan to check against: only the call's shape is checked.
            result = checkAgainstPlan(call, type: implied, size: size)
            result.findings.removeAll { $0.rule != .callShape }
            let named = versions.versions.contains { $0.label.contains(" ") } ? "\(name ?? "no name") \(version)" : version
            result.version = "\(named) (unknown)"
            note = Finding(
                .error, .unknownVersion, call: Self.label(result), path: "context.plan.version", expected: "a known plan version: \(versions.knownVersions)",
                actual: JSONValue.quoted(named), at: nil)
        case .unversioned:
            result = checkAgainstPlan(call, type: implied, size: size)
            result.version = "unversioned"
            // Only events and screens carry the plan's version: identify, group and
            // alias come from no event's definition, in Swift, TypeScript or Kotlin.
            if Self.namedTypes.contains(result.type) {
                note = Finding(
                    .information, .unversioned, call: Self.label(result), path: "context.plan",
                    expected: "a plan version (checked against the newest)", actual: "none", at: nil)
            }
        }
        if let note { result.findings.append(note) }
        for index in result.findings.indices { result.findings[index].version = result.version }
        return result
    }

    /// How findings name a call: `track 'songPlayed'`, `identify`.
    private static func label(_ result: Result) -> String {
        namedTypes.contains(result.type) ? "\(result.type) \(JSONValue.quoted(result.name))" : result.type
    }

    /// The call types named by an event or screen.
    private static let namedTypes: Set<String> = ["track", "screen", "page"]

    /// Checks one call against ``plan`` alone.
    private func checkAgainstPlan(_ call: JSONValue, type implied: String?, size: Int?) -> Result {
        var findings: [Finding] = []
        guard case .object = call else {
            findings.append(Finding(.error, .callShape, call: "call", path: "", expected: "a JSON object", actual: call.kindName, at: nil))
            return Result(type: "?", name: "", findings: findings)
        }
        let type = call["type"]?.stringValue ?? implied ?? ""
        guard Self.types.contains(type) else {
            let actual = call["type"].map { $0.shortText() } ?? "no type"
            findings.append(Finding(.error, .callShape, call: "call", path: "type", expected: "one of alias, group, identify, page, screen, track", actual: actual, at: nil))
            return Result(type: type.isEmpty ? "?" : String(type.prefix(40)), name: "", findings: findings)
        }
        var name = ""
        var label = type
        switch type {
        case "track":
            name = requiredString(call, "event", label: type, into: &findings) ?? ""
            label = "track \(JSONValue.quoted(name))"
            if let declaration = plan.events[name] {
                checkDeclared(declaration, call: call, label: label, into: &findings)
            } else if !name.isEmpty {
                findings.append(Finding(.error, .unknownEvent, call: label, path: "event", expected: "an event the plan declares", actual: JSONValue.quoted(name), at: plan.eventsSection))
            }
        case "screen", "page":
            name = call["name"]?.stringValue ?? ""
            label = "\(type) \(JSONValue.quoted(name))"
            if let declaration = plan.screens[name] {
                checkDeclared(declaration, call: call, label: label, into: &findings)
            } else {
                let actual = call["name"].map { $0.shortText() } ?? "no name"
                findings.append(Finding(.error, .unknownScreen, call: label, path: "name", expected: "a screen the plan declares", actual: actual, at: plan.screensSection))
            }
        case "identify":
            name = call["userId"]?.stringValue ?? ""
            checkTraits(call["traits"], rules: plan.traits, section: plan.traitsSection, label: type, into: &findings)
        case "group":
            name = requiredString(call, "groupId", label: type, into: &findings) ?? ""
            checkTraits(call["traits"], rules: plan.groupTraits, section: plan.groupTraitsSection, label: type, into: &findings)
        default:  // alias
            name = call["userId"]?.stringValue ?? ""
            _ = requiredString(call, "previousId", label: type, into: &findings)
            _ = requiredString(call, "userId", label: type, into: &findings)
        }
        checkShape(call, label: label, into: &findings)
        if let size, size > Self.maximumCallBytes {
            findings.append(Finding(.error, .callShape, call: label, path: "", expected: "a call of at most 32 KB, as Segment's API takes (it refuses larger ones)", actual: "\(size) bytes", at: nil))
        }
        let declared = switch type {
        case "track": plan.events[name] != nil
        case "screen", "page": plan.screens[name] != nil
        default: true
        }
        return Result(type: type, name: name, findings: findings, declared: declared)
    }

    private func requiredString(_ call: JSONValue, _ key: String, label: String, into findings: inout [Finding]) -> String? {
        guard let value = call[key] else {
            findings.append(Finding(.error, .callShape, call: label, path: key, expected: "a string", actual: "nothing", at: nil))
            return nil
        }
        guard case .string(let text) = value, !text.isEmpty else {
            findings.append(Finding(.error, .callShape, call: label, path: key, expected: "a non-empty string", actual: value.shortText(), at: nil))
            return nil
        }
        return text
    }

    /// Anna's own call shape: a string `messageId`, an ISO 8601 `timestamp`, a user or
    /// anonymous id, and an object `context`.
    private func checkShape(_ call: JSONValue, label: String, into findings: inout [Finding]) {
        switch call["messageId"] {
        case .string(let id) where !id.isEmpty: break
        case nil: findings.append(Finding(.warning, .callShape, call: label, path: "messageId", expected: "a message id (Anna sends one per call, so retries can be deduplicated)", actual: "nothing", at: nil))
        case let value?: findings.append(Finding(.error, .callShape, call: label, path: "messageId", expected: "a non-empty string", actual: value.shortText(), at: nil))
        }
        if let timestamp = call["timestamp"], !(timestamp.stringValue.map(ISO8601.isValid) ?? false) {
            findings.append(Finding(.error, .callShape, call: label, path: "timestamp", expected: "an ISO 8601 date-time", actual: timestamp.shortText(), at: nil))
        }
        let userID = call["userId"]?.stringValue ?? ""
        let anonymousID = call["anonymousId"]?.stringValue ?? ""
        if userID.isEmpty && anonymousID.isEmpty {
            findings.append(Finding(.error, .callShape, call: label, path: "userId", expected: "a userId or an anonymousId", actual: "neither", at: nil))
        }
        if let context = call["context"], case .object = context {} else if let context = call["context"] {
            findings.append(Finding(.error, .callShape, call: label, path: "context", expected: "an object", actual: context.kindName, at: nil))
        }
    }

    private func checkDeclared(_ declaration: InspectionPlan.Declaration, call: JSONValue, label: String, into findings: inout [Finding]) {
        if let message = declaration.deprecation {
            findings.append(Finding(
                .warning, .deprecated, call: label, path: "", expected: message.isEmpty ? "no deprecated \(declaration.kind)" : "no deprecated \(declaration.kind) (\(message))",
                actual: "a call", at: declaration.location))
        }
        let properties = call["properties"] ?? .object([])
        guard case .object(let fields) = properties else {
            if properties != .null {
                findings.append(Finding(.error, .wrongType, call: label, path: "properties", expected: "an object", actual: properties.kindName, at: declaration.location))
            }
            return
        }
        checkFields(fields, rules: declaration.properties, path: "properties", label: label, owner: declaration.location, globals: true, into: &findings)
    }

    private func checkTraits(
        _ traits: JSONValue?, rules: [String: InspectionPlan.PropertyRule], section: SourceLocation, label: String, into findings: inout [Finding]
    ) {
        guard let traits, traits != .null else { return }
        guard case .object(let fields) = traits else {
            findings.append(Finding(.error, .wrongType, call: label, path: "traits", expected: "an object", actual: traits.kindName, at: section))
            return
        }
        for (key, value) in fields {
            let path = "traits." + key
            guard let rule = rules[key] else {
                findings.append(Finding(.error, .unknownTrait, call: label, path: path, expected: "a trait the plan declares", actual: value.shortText(), at: section))
                continue
            }
            checkValue(value, rule: rule, path: path, label: label, into: &findings)
        }
    }

    /// The fields of `properties` or of an object: each declared one present unless
    /// optional, none undeclared (globals allowed at the top), each value checked.
    private func checkFields(
        _ fields: [(String, JSONValue)], rules: [InspectionPlan.PropertyRule], path: String, label: String, owner: SourceLocation,
        globals: Bool, into findings: inout [Finding]
    ) {
        var seen: Set<String> = []
        seen.reserveCapacity(fields.count)
        for (key, value) in fields {
            let fieldPath = path + "." + key
            guard seen.insert(key).inserted else { continue }
            if let rule = rules.first(where: { $0.name == key }) {
                checkValue(value, rule: rule, path: fieldPath, label: label, into: &findings)
                if rule.isPII, value != .null {
                    findings.append(Finding(.warning, .pii, call: label, path: fieldPath, expected: "no PII at the collector (the spec marks it pii)", actual: "a \(value.kindName)", at: rule.location))
                }
            } else if globals, let rule = plan.globals[key] {
                checkValue(value, rule: rule, path: fieldPath, label: label, into: &findings)
                if rule.isPII, value != .null {
                    findings.append(Finding(.warning, .pii, call: label, path: fieldPath, expected: "no PII at the collector (the spec marks it pii)", actual: "a \(value.kindName)", at: rule.location))
                }
            } else {
                findings.append(Finding(.error, .unexpectedProperty, call: label, path: fieldPath, expected: "only declared properties", actual: value.shortText(), at: owner))
            }
        }
        // A PII property is absent from what a provider without `receivesPII` sends (the
        // default: DurableProvider strips it), so its absence is no finding.
        for rule in rules where !rule.isOptional && !rule.isPII && !seen.contains(rule.name) {
            findings.append(Finding(.error, .missingProperty, call: label, path: path + "." + rule.name, expected: rule.typeDescription, actual: "nothing", at: rule.location))
        }
    }

    private func checkValue(_ value: JSONValue, rule: InspectionPlan.PropertyRule, path: String, label: String, into findings: inout [Finding]) {
        if value == .null {
            if !rule.isOptional {
                findings.append(Finding(.error, .wrongType, call: label, path: path, expected: rule.typeDescription, actual: "null", at: rule.location))
            }
            return
        }
        guard rule.isArray else {
            checkElement(value, rule: rule, path: path, label: label, into: &findings)
            return
        }
        guard case .array(let elements) = value else {
            findings.append(Finding(.error, .wrongType, call: label, path: path, expected: rule.typeDescription, actual: value.shortText(), at: rule.location))
            return
        }
        for (index, element) in elements.enumerated() {
            checkElement(element, rule: rule, path: "\(path)[\(index)]", label: label, into: &findings)
        }
    }

    private func checkElement(_ value: JSONValue, rule: InspectionPlan.PropertyRule, path: String, label: String, into findings: inout [Finding]) {
        func wrong(_ expected: String) {
            findings.append(Finding(.error, .wrongType, call: label, path: path, expected: expected, actual: shown(value, rule), at: rule.location))
        }
        func violated(_ problem: String) {
            findings.append(Finding(.error, .constraint, call: label, path: path, expected: problem, actual: shown(value, rule), at: rule.location))
        }
        switch rule.shape {
        case .int:
            guard case .int(let number) = value else {
                if case .double(let number) = value, number == number.rounded(), abs(number) < 9.0e15 {
                    if let problem = rule.constraints.problem(withNumber: number) { violated(problem) }
                    return
                }
                return wrong("an integer (int)")
            }
            if let problem = rule.constraints.problem(withNumber: Double(number)) { violated(problem) }
        case .double:
            let number: Double
            switch value {
            case .int(let integer): number = Double(integer)
            case .double(let double): number = double
            default: return wrong("a number (double)")
            }
            if let problem = rule.constraints.problem(withNumber: number) { violated(problem) }
        case .bool:
            guard case .bool = value else { return wrong("a boolean (bool)") }
        case .string:
            guard case .string(let text) = value else { return wrong("a string") }
            if let problem = rule.constraints.problem(withText: text) { return violated(problem) }
            if let pattern = rule.pattern, let source = rule.constraints.pattern, let problem = pattern.problem(with: text, pattern: source) {
                violated(problem)
            }
        case .date:
            guard case .string(let text) = value, ISO8601.isValid(text) else { return wrong("an ISO 8601 date-time string (date)") }
        case .url:
            guard case .string(let text) = value, Self.isAbsoluteURL(text) else { return wrong("an absolute URL string (url)") }
        case .uuid:
            guard case .string(let text) = value, Self.isUUID(text) else { return wrong("a UUID string (uuid)") }
        case .enumeration(let index):
            let enumeration = plan.enums[index]
            guard case .string(let text) = value else { return wrong("a string of \(enumeration.name)") }
            if !enumeration.values.contains(text) {
                findings.append(Finding(
                    .error, .notInEnum, call: label, path: path,
                    expected: "one of \(enumeration.ordered.map(JSONValue.quoted).joined(separator: ", "))",
                    actual: shown(value, rule), at: rule.location))
            }
        case .object(let index):
            let object = plan.objects[index]
            guard case .object(let fields) = value else { return wrong("an object (\(object.name))") }
            checkFields(fields, rules: object.properties, path: path, label: label, owner: object.location, globals: false, into: &findings)
        }
    }

    /// What arrived, without the value of a PII property.
    private func shown(_ value: JSONValue, _ rule: InspectionPlan.PropertyRule) -> String {
        rule.isPII ? "a \(value.kindName)" : value.shortText()
    }

    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                if byte != UInt8(ascii: "-") { return false }
            } else if !(byte >= 48 && byte <= 57 || byte >= 65 && byte <= 70 || byte >= 97 && byte <= 102) {
                return false
            }
        }
        return true
    }

    static func isAbsoluteURL(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetterForURL else { return false }
        return scheme.unicodeScalars.allSatisfy { $0.isASCIILetterForURL || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "." }
            && text.index(after: colon) < text.endIndex && !text.contains(" ")
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetterForURL: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
