/// One call as the inspector received it, or one request it refused.
package struct CallRecord: Sendable, Codable, Hashable {
    /// Valid, valid with warnings, invalid, or a request refused before any call was read.
    package enum Status: String, Sendable, Codable, Hashable {
        case valid, warning, invalid, rejected
    }

    /// Increasing from 1, in arrival order.
    package var id: Int
    /// Seconds since 1970.
    package var time: Double
    /// The request's path, `/v1/batch`.
    package var endpoint: String
    /// `track`, `screen`…, or `request` for a refused request.
    package var type: String
    /// The event or screen name, the user or group id, or the HTTP status of a refused request.
    package var name: String
    package var status: Status
    package var findings: [Finding]
    /// The call's JSON (cut at ``InspectorLimits/maximumCallText``); for a refused request, its first bytes.
    package var json: String
    /// The plan version the call was checked against (see ``CallChecker/Result/version``); `nil` without versions.
    package var version: String?

    package init(
        id: Int, time: Double, endpoint: String, type: String, name: String, status: Status, findings: [Finding], json: String, version: String? = nil
    ) {
        self.id = id
        self.time = time
        self.endpoint = endpoint
        self.type = type
        self.name = name
        self.status = status
        self.findings = findings
        self.json = json
        self.version = version
    }

    /// The status a call's findings give it.
    package static func status(of findings: [Finding]) -> Status {
        if findings.contains(where: { $0.severity == .error }) { return .invalid }
        return findings.contains(where: { $0.severity == .warning }) ? .warning : .valid
    }
}

/// How much the inspector keeps: everything else is counted, not kept.
package struct InspectorLimits: Sendable, Hashable {
    /// The most recent calls kept with their JSON, for the page (`--keep`).
    package var recentCalls = 1_000
    /// The largest request body, as sent and once inflated (`--max-body`); larger gets 413.
    package var maximumBody = 512 * 1024
    /// The most characters of one call's JSON kept.
    package var maximumCallText = 16 * 1024
    /// The most distinct call names with their own row in the table; the rest share one.
    package var maximumNames = 10_000
    /// The most distinct findings kept for the reports; the rest are counted.
    package var maximumFindings = 10_000

    package init() {}
}
