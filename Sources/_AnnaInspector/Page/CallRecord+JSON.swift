/// The JSON the page and `/api` read, written by hand: every string through
/// ``JSONValue/writeString(_:into:)``, which also escapes `<`, `>` and `&`.
extension CallRecord {
    /// `{"id":…,"time":…,"endpoint":…,"type":…,"name":…,"status":…,"findings":[…]}`, and `"json"` when asked.
    package func writeJSON(into out: inout [UInt8], includingJSON: Bool) {
        out.append(contentsOf: #"{"id":"#.utf8)
        out.append(contentsOf: String(id).utf8)
        out.append(contentsOf: #","time":"#.utf8)
        out.append(contentsOf: String(time).utf8)
        for (key, value) in [("endpoint", endpoint), ("type", type), ("name", name), ("status", status.rawValue)] {
            out.append(contentsOf: ",\"\(key)\":".utf8)
            JSONValue.writeString(value, into: &out)
        }
        if let version {
            out.append(contentsOf: #","version":"#.utf8)
            JSONValue.writeString(version, into: &out)
        }
        out.append(contentsOf: #","findings":["#.utf8)
        for (index, finding) in findings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            finding.writeJSON(into: &out)
        }
        out.append(UInt8(ascii: "]"))
        if includingJSON {
            out.append(contentsOf: #","json":"#.utf8)
            JSONValue.writeString(json, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}

extension Finding {
    /// The finding as the page reads it, its message and location included.
    package func writeJSON(into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        let fields = [
            ("severity", severity.rawValue), ("rule", rule.rawValue), ("call", call), ("path", path), ("expected", expected),
            ("actual", actual), ("message", message),
        ]
        for (index, (key, value)) in fields.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: "\"\(key)\":".utf8)
            JSONValue.writeString(value, into: &out)
        }
        if let file {
            out.append(contentsOf: #","location":"#.utf8)
            JSONValue.writeString("\(SpecPath.shown(file)):\(line ?? 1):\(column ?? 1)", into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}

extension Inspector {
    /// `/api/state`: the totals, the table, the plan's declarations, which were seen,
    /// and the kept calls (without their JSON), oldest first; with plan versions, also
    /// each version's declarations (`versions`), and each row's and call's `version`.
    package func stateJSON(liveClients: Int, extra: [(String, Int)] = []) -> [UInt8] {
        let log = self.log
        let plan = checker.plan
        var out: [UInt8] = []
        out.append(contentsOf: #"{"totals":{"#.utf8)
        let totals = log.totals
        let numbers = [
            ("requests", totals.requests), ("rejectedRequests", totals.rejectedRequests), ("calls", totals.calls), ("validCalls", totals.validCalls),
            ("invalidCalls", totals.invalidCalls), ("callsWithWarnings", totals.callsWithWarnings), ("errors", totals.errors),
            ("warnings", totals.warnings), ("callsNotKept", totals.callsNotKept), ("findingsNotKept", totals.findingsNotKept), ("liveClients", liveClients),
        ] + extra + (totals.information.map { [("information", $0)] } ?? [])
        out.append(contentsOf: numbers.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",").utf8)
        out.append(contentsOf: #"},"table":["#.utf8)
        for (index, row) in log.table.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"type":"#.utf8)
            JSONValue.writeString(row.type, into: &out)
            out.append(contentsOf: #","name":"#.utf8)
            JSONValue.writeString(row.name, into: &out)
            if let version = row.version {
                out.append(contentsOf: #","version":"#.utf8)
                JSONValue.writeString(version, into: &out)
            }
            out.append(contentsOf: ",\"declared\":\(row.declared),\"seen\":\(row.seen),\"valid\":\(row.valid),\"invalid\":\(row.invalid),\"warnings\":\(row.warnings),\"lastSeen\":\(row.lastSeen)}".utf8)
        }
        out.append(contentsOf: #"],"declared":"#.utf8)
        Self.writeDeclarations(of: plan, into: &out)
        let versions = checker.versions
        if versions.isVersioned {
            out.append(contentsOf: #","versions":["#.utf8)
            for (index, version) in versions.versions.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: #"{"version":"#.utf8)
                JSONValue.writeString(version.label, into: &out)
                out.append(contentsOf: ",\"newest\":\(version.isNewest),\"declared\":".utf8)
                Self.writeDeclarations(of: version.plan, into: &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: #","calls":["#.utf8)
        for (index, record) in log.recent.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            record.writeJSON(into: &out, includingJSON: false)
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// `[{"kind":…,"name":…,"location":…,"deprecated":…}, …]`: a plan's events, then its screens.
    private static func writeDeclarations(of plan: InspectionPlan, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, item) in plan.declarationOrder.enumerated() {
            guard let declaration = item.kind == "event" ? plan.events[item.name] : plan.screens[item.name] else { continue }
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"kind":"#.utf8)
            JSONValue.writeString(item.kind, into: &out)
            out.append(contentsOf: #","name":"#.utf8)
            JSONValue.writeString(item.name, into: &out)
            out.append(contentsOf: #","location":"#.utf8)
            let location = declaration.location
            JSONValue.writeString("\(SpecPath.shown(location.file)):\(location.line):\(location.column)", into: &out)
            out.append(contentsOf: ",\"deprecated\":\(declaration.deprecation != nil)}".utf8)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// One Server-Sent Events message carrying `records` (without their JSON).
    package static func serverSentEvent(_ records: [CallRecord]) -> [UInt8] {
        var out: [UInt8] = Array("event: calls\ndata: [".utf8)
        for (index, record) in records.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            record.writeJSON(into: &out, includingJSON: false)
        }
        out.append(contentsOf: "]\n\n".utf8)
        return out
    }
}
