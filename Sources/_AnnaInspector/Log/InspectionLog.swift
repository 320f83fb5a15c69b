import Foundation
import _AnnaGeneratorCore

/// What the inspector has seen: the last calls (a ring), a row per call name, the
/// distinct findings with their counts, and coverage of the plan. Bounded whatever
/// arrives: beyond ``InspectorLimits``, things are counted, not kept.
///
/// A value; ``Inspector`` keeps it behind its lock.
package struct InspectionLog: Sendable {
    /// One row of the table: a call type and name.
    package struct NameStats: Sendable, Codable, Hashable {
        package var type: String
        package var name: String
        /// Whether the plan declares it (events and screens; other calls count as declared).
        package var declared: Bool
        /// The plan version its calls were checked against; `nil` without versions.
        package var version: String?
        package var seen = 0
        package var valid = 0
        package var invalid = 0
        /// Valid calls that had warnings.
        package var warnings = 0
        package var lastSeen: Double = 0
    }

    /// A finding and how often it was found; `actual` is the first value seen.
    package struct FindingCount: Sendable, Codable, Hashable {
        package var finding: Finding
        package var count: Int
    }

    /// The totals at a glance.
    package struct Totals: Sendable, Codable, Hashable {
        package var requests = 0
        package var rejectedRequests = 0
        package var calls = 0
        package var validCalls = 0
        package var invalidCalls = 0
        package var callsWithWarnings = 0
        package var errors = 0
        package var warnings = 0
        /// Information (a call from a superseded or no version); `nil` while there is none.
        package var information: Int?
        /// Calls whose record was pushed out of the ring.
        package var callsNotKept = 0
        /// Findings counted in the totals but not kept as distinct entries.
        package var findingsNotKept = 0
    }

    package let limits: InspectorLimits
    package private(set) var totals = Totals()
    private var ring: [CallRecord] = []
    private var ringStart = 0
    package private(set) var nextID = 1
    private var stats: [String: NameStats] = [:]
    private var statsOrder: [String] = []
    /// Calls seen per type and name, whatever their version (kept only with versions; bounded as the table).
    private var seenByName: [String: Int] = [:]
    private var findingIndex: [FindingKey: Int] = [:]
    package private(set) var findings: [FindingCount] = []

    private struct FindingKey: Hashable {
        var rule: Finding.Rule
        var severity: Finding.Severity
        var call: String
        var path: String
        var expected: String
        /// Refusals differ by what was wrong; other findings are one whatever arrived.
        var refusal: String
        var line: Int?
        /// Versions' specs are different files, and their calls are counted apart.
        var file: String?
        var version: String?
    }

    package init(limits: InspectorLimits) {
        self.limits = limits
        ring.reserveCapacity(min(limits.recentCalls, 4096))
    }

    /// Records one call or refused request and returns it with its id.
    /// - Parameter version: The plan version it was checked against, which the table groups by.
    package mutating func record(
        time: Double, endpoint: String, type: String, name: String, findings callFindings: [Finding], json: String, rejected: Bool = false,
        declared: Bool = true, version: String? = nil
    ) -> CallRecord {
        let status: CallRecord.Status = rejected ? .rejected : CallRecord.status(of: callFindings)
        let text = json.utf8.count > limits.maximumCallText ? String(decoding: json.utf8.prefix(limits.maximumCallText), as: UTF8.self) + "…" : json
        let record = CallRecord(id: nextID, time: time, endpoint: endpoint, type: type, name: name, status: status, findings: callFindings, json: text, version: version)
        nextID += 1
        if rejected {
            totals.rejectedRequests += 1
        } else {
            totals.calls += 1
            switch status {
            case .valid: totals.validCalls += 1
            case .warning: totals.validCalls += 1; totals.callsWithWarnings += 1
            default: totals.invalidCalls += 1
            }
            count(type: type, name: name, status: status, time: time, declared: declared, version: version)
        }
        for finding in callFindings {
            switch finding.severity {
            case .error: totals.errors += 1
            case .warning: totals.warnings += 1
            case .information: totals.information = (totals.information ?? 0) + 1
            }
            let key = FindingKey(rule: finding.rule, severity: finding.severity, call: finding.call, path: finding.path, expected: finding.expected,
                refusal: finding.rule == .request ? finding.actual : "", line: finding.line,
                file: finding.version == nil ? nil : finding.file, version: finding.version)
            if let index = findingIndex[key] {
                findings[index].count += 1
            } else if findings.count < limits.maximumFindings {
                findingIndex[key] = findings.count
                findings.append(FindingCount(finding: finding, count: 1))
            } else {
                totals.findingsNotKept += 1
            }
        }
        if limits.recentCalls > 0 {
            if ring.count < limits.recentCalls {
                ring.append(record)
            } else {
                ring[ringStart] = record
                ringStart = (ringStart + 1) % ring.count
                totals.callsNotKept += 1
            }
        } else {
            totals.callsNotKept += 1
        }
        return record
    }

    /// Counts a request (accepted or not).
    package mutating func countRequest() { totals.requests += 1 }

    /// Whether calls of a type have a row per name (events and screens) or one row
    /// for the type (identify, group, alias: their names are user and group ids).
    package static func isNamed(_ type: String) -> Bool { type == "track" || type == "screen" || type == "page" }

    private mutating func count(type: String, name: String, status: CallRecord.Status, time: Double, declared: Bool, version: String?) {
        let name = Self.isNamed(type) ? name : ""
        let named = type + "\u{0}" + name
        if version != nil, seenByName[named] != nil || seenByName.count < limits.maximumNames { seenByName[named, default: 0] += 1 }
        var key = version.map { named + "\u{0}" + $0 } ?? named
        if stats[key] == nil, stats.count >= limits.maximumNames {
            key = "(other)"
            if stats[key] == nil {
                stats[key] = NameStats(type: "(other)", name: "(names past the table's limit)", declared: false)
                statsOrder.append(key)
            }
        }
        if stats[key] == nil {
            stats[key] = NameStats(type: type, name: name, declared: declared, version: version)
            statsOrder.append(key)
        }
        stats[key]?.seen += 1
        stats[key]?.lastSeen = time
        switch status {
        case .valid: stats[key]?.valid += 1
        case .warning: stats[key]?.valid += 1; stats[key]?.warnings += 1
        default: stats[key]?.invalid += 1
        }
    }

    /// The kept calls, oldest first.
    package var recent: [CallRecord] {
        Array(ring[ringStart...] + ring[..<ringStart])
    }

    /// The kept call with this id, if still kept.
    package func call(id: Int) -> CallRecord? {
        guard let first = ring.isEmpty ? nil : ring[ringStart].id, id >= first, id - first < ring.count else { return nil }
        return ring[(ringStart + id - first) % ring.count]
    }

    /// The table's rows, in first-seen order.
    package var table: [NameStats] { statsOrder.compactMap { stats[$0] } }

    /// How often a call type and name was seen, in any version, or in one version's group.
    package func seen(type: String, name: String, version: String? = nil) -> Int {
        guard let version else { return seenByName[type + "\u{0}" + name] ?? stats[type + "\u{0}" + name]?.seen ?? 0 }
        return stats[type + "\u{0}" + name + "\u{0}" + version]?.seen ?? 0
    }
}
