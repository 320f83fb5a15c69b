import _AnnaGeneratorCore

/// One thing wrong with a call, or worth a look: which call, where in it, what the
/// plan expected, what arrived, and where the spec declares what was expected.
package struct Finding: Sendable, Hashable, Codable {
    package enum Severity: String, Sendable, Hashable, Codable {
        /// A violation: fails the CI gate.
        case error
        /// Worth a look (a deprecated event, a PII property): fails the gate only with `--fail-on-warnings`.
        case warning
        /// Information, never a failure: a call from a version that a newer plan changed, or one that names no version.
        case information
    }

    /// What kind of check found it.
    package enum Rule: String, Sendable, Hashable, Codable, CaseIterable {
        case unknownEvent = "unknown-event"
        case unknownScreen = "unknown-screen"
        case unknownTrait = "unknown-trait"
        case missingProperty = "missing-property"
        case unexpectedProperty = "unexpected-property"
        case wrongType = "wrong-type"
        case notInEnum = "not-in-enum"
        case constraint
        case deprecated
        case pii
        case callShape = "call-shape"
        case request
        /// The call names a plan version no loaded spec declares.
        case unknownVersion = "unknown-version"
        /// The call's version is older, and the newest version changed or removed its event.
        case supersededVersion = "superseded-version"
        /// The call names no plan version; it was checked against the newest.
        case unversioned
    }

    package var severity: Severity
    package var rule: Rule
    /// The call, as `track 'orderPlaced'`, `identify`, or the request for a rejected one.
    package var call: String
    /// Where in the call: `properties.items[1].price`; empty for the call itself.
    package var path: String
    package var expected: String
    package var actual: String
    /// Where the spec declares what was expected; `nil` where no spec line applies.
    package var file: String?
    package var line: Int?
    package var column: Int?
    /// The plan version the call was checked against, as reports group by it; `nil`
    /// when no loaded spec declares a version.
    package var version: String?

    package init(
        _ severity: Severity, _ rule: Rule, call: String, path: String, expected: String, actual: String,
        at location: SourceLocation?
    ) {
        self.severity = severity
        self.rule = rule
        self.call = call
        self.path = path
        self.expected = expected
        self.actual = actual
        self.file = location?.file
        self.line = location?.line
        self.column = location?.column
    }

    /// `track 'orderPlaced' properties.total: expected double, got "12"`.
    package var message: String {
        let place = path.isEmpty ? call : "\(call) \(path)"
        return "\(place): expected \(expected), got \(actual)"
    }

    /// `path:line:col: error: message`, as compilers print it.
    package var description: String {
        let prefix = file.map { "\($0):\(line ?? 1):\(column ?? 1): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message) [\(rule.rawValue)]"
    }
}
