import Foundation
import _AnnaGeneratorCore

/// What a run of the inspector found, as the CI gate writes it: totals, each
/// distinct finding with its count and spec location, a row per call name, and the
/// plan's coverage. `passed` is what the exit status says.
package struct InspectionReport: Sendable, Codable {
    /// An event or screen the plan declares, with where.
    package struct Declared: Sendable, Codable, Hashable {
        package var kind: String
        package var name: String
        package var file: String
        package var line: Int
        package var column: Int
    }

    /// The plan's coverage.
    package struct Coverage: Sendable, Codable {
        /// How many events and screens the plan declares, and how many were seen.
        package var declared: Int
        package var seen: Int
        /// Declared and never seen.
        package var notSeen: [Declared]
        /// What the run had to cover (`--require-all` or `--require`), and which of those were not seen.
        package var required: [String]
        package var missingRequired: [Declared]
    }

    /// One distinct finding, how often, and its message.
    package struct Entry: Sendable, Codable {
        package var severity: Finding.Severity
        package var rule: Finding.Rule
        package var call: String
        package var path: String
        package var expected: String
        package var actual: String
        package var file: String?
        package var line: Int?
        package var column: Int?
        package var count: Int
        package var message: String
    }

    /// Forwarding's counters, when `--forward` was given.
    package struct Forwarding: Sendable, Codable, Hashable {
        package var target: String
        package var forwarded: Int
        package var failed: Int
        package var dropped: Int

        package init(target: String, forwarded: Int, failed: Int, dropped: Int) {
            self.target = target
            self.forwarded = forwarded
            self.failed = failed
            self.dropped = dropped
        }
    }

    package var version = 1
    package var specs: [String]
    package var totals: InspectionLog.Totals
    package var findings: [Entry]
    package var calls: [InspectionLog.NameStats]
    package var coverage: Coverage
    package var forwarding: Forwarding?
    /// Whether the gate passes: no error (nor warning with `--fail-on-warnings`), and every required name seen.
    package var passed: Bool
    /// The exit status: 0 when passed, 1 otherwise.
    package var exitCode: Int32 { passed ? 0 : 1 }

    /// Builds the report of a log against its plan.
    /// - Parameters:
    ///   - required: `nil` for none, `[]` for every declared event and screen, or names.
    ///   - failOnWarnings: Whether a warning fails the gate.
    package init(log: InspectionLog, plan: InspectionPlan, required: [String]?, failOnWarnings: Bool, forwarding: Forwarding? = nil) {
        specs = plan.files
        totals = log.totals
        findings = log.findings.map { counted in
            let finding = counted.finding
            return Entry(
                severity: finding.severity, rule: finding.rule, call: finding.call, path: finding.path, expected: finding.expected,
                actual: finding.actual, file: finding.file, line: finding.line, column: finding.column, count: counted.count, message: finding.message)
        }
        calls = log.table
        var declared: [Declared] = []
        var notSeen: [Declared] = []
        for (kind, name) in plan.declarationOrder {
            guard let declaration = kind == "event" ? plan.events[name] : plan.screens[name] else { continue }
            let entry = Declared(kind: kind, name: name, file: declaration.location.file, line: declaration.location.line, column: declaration.location.column)
            declared.append(entry)
            let seen = kind == "event" ? log.seen(type: "track", name: name) : log.seen(type: "screen", name: name) + log.seen(type: "page", name: name)
            if seen == 0 { notSeen.append(entry) }
        }
        var requiredNames: [String] = []
        var missing: [Declared] = []
        if let required {
            requiredNames = required.isEmpty ? declared.map(\.name) : required
            let unseen = Set(notSeen.map(\.name))
            for name in requiredNames where unseen.contains(name) || !declared.contains(where: { $0.name == name }) {
                missing.append(notSeen.first { $0.name == name } ?? Declared(kind: "event", name: name, file: plan.files.first ?? "", line: 1, column: 1))
            }
        }
        coverage = Coverage(declared: declared.count, seen: declared.count - notSeen.count, notSeen: notSeen, required: requiredNames, missingRequired: missing)
        self.forwarding = forwarding
        passed = totals.errors == 0 && (!failOnWarnings || totals.warnings == 0) && missing.isEmpty
    }

    /// Pretty, key-sorted JSON.
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// One line per distinct finding and per required name not seen, as GitHub
    /// Actions reads workflow commands: `::error file=…,line=…,col=…::message`.
    /// GitHub places an annotation by its path from the repository's root: a spec
    /// path under `directory` (the working directory, where a workflow's steps run)
    /// is written relative to it.
    package func githubAnnotations(relativeTo directory: String = FileManager.default.currentDirectoryPath) -> String {
        func path(_ file: String) -> String { SpecPath.shown(file, from: directory) }
        var lines: [String] = []
        for entry in findings {
            let command = entry.severity == .error ? "error" : "warning"
            var properties: [String] = []
            if let file = entry.file {
                properties.append("file=\(Self.escapeProperty(path(file)))")
                properties.append("line=\(entry.line ?? 1)")
                properties.append("col=\(entry.column ?? 1)")
            }
            properties.append("title=\(Self.escapeProperty("anna inspect: \(entry.rule.rawValue)"))")
            let times = entry.count > 1 ? " (\(entry.count) times)" : ""
            lines.append("::\(command) \(properties.joined(separator: ","))::\(Self.escapeData(entry.message + times))")
        }
        for missing in coverage.missingRequired {
            lines.append("::error file=\(Self.escapeProperty(path(missing.file))),line=\(missing.line),col=\(missing.column),title=\(Self.escapeProperty("anna inspect: not-seen"))::\(Self.escapeData("\(missing.kind) '\(missing.name)' must be covered by this run but was never seen"))")
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// JUnit XML: a test case per call name seen (failing with its findings), per
    /// required name (failing when not seen), and one for refused requests.
    package func junit() -> String {
        var cases: [(name: String, className: String, failures: [String])] = []
        var byCall: [String: [String]] = [:]
        var requestFailures: [String] = []
        for entry in findings where entry.severity == .error {
            let location = entry.file.map { "\($0):\(entry.line ?? 1):\(entry.column ?? 1): " } ?? ""
            let line = "\(location)\(entry.message) [\(entry.rule.rawValue)] ×\(entry.count)"
            if entry.rule == .request { requestFailures.append(line) } else { byCall[entry.call, default: []].append(line) }
        }
        for row in calls {
            let label = row.type == "track" || row.type == "screen" || row.type == "page" ? "\(row.type) \(JSONValue.quoted(row.name))" : row.type
            cases.append((label, "calls", byCall.removeValue(forKey: label) ?? []))
        }
        for (label, failures) in byCall.sorted(by: { $0.key < $1.key }) { cases.append((label, "calls", failures)) }
        for name in coverage.required {
            let missing = coverage.missingRequired.first { $0.name == name }
            cases.append(("covers \(name)", "coverage", missing.map { ["\($0.file):\($0.line):\($0.column): \($0.kind) '\(name)' was never seen"] } ?? []))
        }
        cases.append(("requests", "requests", requestFailures))
        let failures = cases.filter { !$0.failures.isEmpty }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="anna inspect" tests="\#(cases.count)" failures="\#(failures)">"# + "\n"
        xml += #"  <testsuite name="anna inspect" tests="\#(cases.count)" failures="\#(failures)" errors="0">"# + "\n"
        for testCase in cases {
            let open = #"    <testcase classname="anna-inspect.\#(Self.xml(testCase.className))" name="\#(Self.xml(testCase.name))""#
            if testCase.failures.isEmpty {
                xml += open + "/>\n"
            } else {
                xml += open + ">\n"
                xml += #"      <failure message="\#(Self.xml(testCase.failures[0]))" type="violation">\#(Self.xml(testCase.failures.joined(separator: "\n")))</failure>"# + "\n"
                xml += "    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// Text safe in XML attributes and content; characters XML 1.0 cannot hold become `?`.
    static func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { out += "?" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// The closing summary printed on standard error.
    package func summary() -> String {
        var text = "anna inspect: \(totals.calls) calls (\(totals.validCalls) valid, \(totals.invalidCalls) invalid), "
        text += "\(totals.rejectedRequests) refused requests, \(totals.errors) errors, \(totals.warnings) warnings; "
        text += "covered \(coverage.seen) of \(coverage.declared) declared events and screens"
        if !coverage.missingRequired.isEmpty {
            text += "; not seen but required: \(coverage.missingRequired.map(\.name).joined(separator: ", "))"
        }
        if let forwarding {
            text += "; forwarded \(forwarding.forwarded), failed \(forwarding.failed), dropped \(forwarding.dropped)"
        }
        return text + (passed ? "; passed" : "; failed")
    }
}
