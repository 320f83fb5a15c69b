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
        /// The plan version of the calls it was found in; `nil` without versions.
        package var version: String?
    }

    /// The calls checked against one plan version, or naming none, or an unknown one.
    package struct VersionGroup: Sendable, Codable {
        /// `2.0.0` (`Shop 2.0.0` with several plans), `unversioned`, or `9.9.9 (unknown)`.
        package var version: String
        /// Whether a loaded spec declares it, and whether it is its plan's newest.
        package var known: Bool
        package var newest: Bool
        /// Its specs; empty for calls naming no version or an unknown one.
        package var specs: [String]
        package var calls = 0
        package var validCalls = 0
        package var invalidCalls = 0
        package var errors = 0
        package var warnings = 0
        package var information = 0
        /// The version's own coverage: its events and screens, seen in calls naming it.
        package var coverage: Coverage?
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
    /// The calls, findings and coverage per plan version; `nil` when no spec declares a version.
    package var versions: [VersionGroup]?
    /// Whether the gate passes: no error (nor warning with `--fail-on-warnings`), and every required name seen.
    package var passed: Bool
    /// The exit status: 0 when passed, 1 otherwise.
    package var exitCode: Int32 { passed ? 0 : 1 }

    /// Builds the report of a log against its plan.
    /// - Parameters:
    ///   - required: `nil` for none, `[]` for every declared event and screen, or names.
    ///   - failOnWarnings: Whether a warning fails the gate.
    ///   - versions: The plan versions loaded, when any spec declares one: the report groups by them.
    package init(
        log: InspectionLog, plan: InspectionPlan, required: [String]?, failOnWarnings: Bool, forwarding: Forwarding? = nil, versions: PlanVersions? = nil
    ) {
        specs = plan.files
        totals = log.totals
        findings = log.findings.map { counted in
            let finding = counted.finding
            return Entry(
                severity: finding.severity, rule: finding.rule, call: finding.call, path: finding.path, expected: finding.expected,
                actual: finding.actual, file: finding.file, line: finding.line, column: finding.column, count: counted.count, message: finding.message,
                version: finding.version)
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
        if let versions, versions.isVersioned { self.versions = Self.groups(versions, log: log, findings: findings) }
        passed = totals.errors == 0 && (!failOnWarnings || totals.warnings == 0) && missing.isEmpty
    }

    /// One group per known version, oldest first, then the others calls named, as first seen.
    private static func groups(_ versions: PlanVersions, log: InspectionLog, findings: [Entry]) -> [VersionGroup] {
        var groups = versions.versions.map { version in
            var notSeen: [Declared] = []
            let plan = version.plan
            for (kind, name) in plan.declarationOrder {
                guard let declaration = kind == "event" ? plan.events[name] : plan.screens[name] else { continue }
                let seen = kind == "event"
                    ? log.seen(type: "track", name: name, version: version.label)
                    : log.seen(type: "screen", name: name, version: version.label) + log.seen(type: "page", name: name, version: version.label)
                if seen == 0 {
                    let location = declaration.location
                    notSeen.append(Declared(kind: kind, name: name, file: location.file, line: location.line, column: location.column))
                }
            }
            let declared = plan.declarationOrder.count
            return VersionGroup(
                version: version.label, known: true, newest: version.isNewest, specs: plan.files,
                coverage: Coverage(declared: declared, seen: declared - notSeen.count, notSeen: notSeen, required: [], missingRequired: []))
        }
        var position = Dictionary(groups.enumerated().map { ($1.version, $0) }, uniquingKeysWith: { first, _ in first })
        func index(_ label: String) -> Int {
            if let found = position[label] { return found }
            groups.append(VersionGroup(version: label, known: false, newest: false, specs: []))
            position[label] = groups.count - 1
            return groups.count - 1
        }
        for row in log.table {
            guard let label = row.version else { continue }
            let at = index(label)
            groups[at].calls += row.seen
            groups[at].validCalls += row.valid
            groups[at].invalidCalls += row.invalid
        }
        for entry in findings {
            guard let label = entry.version else { continue }
            let at = index(label)
            switch entry.severity {
            case .error: groups[at].errors += entry.count
            case .warning: groups[at].warnings += entry.count
            case .information: groups[at].information += entry.count
            }
        }
        return groups
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
            let command = switch entry.severity {
            case .error: "error"
            case .warning: "warning"
            case .information: "notice"
            }
            var properties: [String] = []
            if let file = entry.file {
                properties.append("file=\(Self.escapeProperty(path(file)))")
                properties.append("line=\(entry.line ?? 1)")
                properties.append("col=\(entry.column ?? 1)")
            }
            let version = entry.version.map { " \($0)" } ?? ""
            properties.append("title=\(Self.escapeProperty("anna inspect\(version): \(entry.rule.rawValue)"))")
            let times = entry.count > 1 ? " (\(entry.count) times)" : ""
            let group = entry.version.map { "[plan \($0)] " } ?? ""
            lines.append("::\(command) \(properties.joined(separator: ","))::\(Self.escapeData(group + entry.message + times))")
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
    /// required name (failing when not seen), and one for refused requests. With plan
    /// versions, the calls of each version are a test suite of their own
    /// (`anna inspect 2.0.0`), and information is no failure.
    package func junit() -> String {
        typealias TestCase = (name: String, className: String, failures: [String])
        var suites: [(name: String, cases: [TestCase])] = []
        func add(_ testCase: TestCase, version: String?) {
            let suite = version.map { "anna inspect \($0)" } ?? "anna inspect"
            if let at = suites.firstIndex(where: { $0.name == suite }) { suites[at].cases.append(testCase) } else { suites.append((suite, [testCase])) }
        }
        var byCall: [String: [String]] = [:]
        var callOrder: [(key: String, label: String, version: String?)] = []
        var requestFailures: [String] = []
        func key(_ label: String, _ version: String?) -> String { version.map { label + "\u{0}" + $0 } ?? label }
        for entry in findings where entry.severity == .error {
            let location = entry.file.map { "\($0):\(entry.line ?? 1):\(entry.column ?? 1): " } ?? ""
            let line = "\(location)\(entry.message) [\(entry.rule.rawValue)] ×\(entry.count)"
            if entry.rule == .request {
                requestFailures.append(line)
            } else {
                let found = key(entry.call, entry.version)
                if byCall[found] == nil { callOrder.append((found, entry.call, entry.version)) }
                byCall[found, default: []].append(line)
            }
        }
        if versions == nil { suites.append(("anna inspect", [])) } else { for group in versions ?? [] { suites.append(("anna inspect \(group.version)", [])) } }
        for row in calls {
            let label = row.type == "track" || row.type == "screen" || row.type == "page" ? "\(row.type) \(JSONValue.quoted(row.name))" : row.type
            add((label, "calls", byCall.removeValue(forKey: key(label, row.version)) ?? []), version: row.version)
        }
        for left in callOrder.sorted(by: { $0.key < $1.key }) {
            guard let failures = byCall.removeValue(forKey: left.key) else { continue }
            add((left.label, "calls", failures), version: left.version)
        }
        for name in coverage.required {
            let missing = coverage.missingRequired.first { $0.name == name }
            add(("covers \(name)", "coverage", missing.map { ["\($0.file):\($0.line):\($0.column): \($0.kind) '\(name)' was never seen"] } ?? []), version: nil)
        }
        add(("requests", "requests", requestFailures), version: nil)
        suites.removeAll { $0.cases.isEmpty }
        let all = suites.flatMap(\.cases)
        let failures = all.filter { !$0.failures.isEmpty }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="anna inspect" tests="\#(all.count)" failures="\#(failures)">"# + "\n"
        for suite in suites {
            let suiteFailures = suite.cases.filter { !$0.failures.isEmpty }.count
            xml += #"  <testsuite name="\#(Self.xml(suite.name))" tests="\#(suite.cases.count)" failures="\#(suiteFailures)" errors="0">"# + "\n"
            for testCase in suite.cases {
                let open = #"    <testcase classname="anna-inspect.\#(Self.xml(testCase.className))" name="\#(Self.xml(testCase.name))""#
                if testCase.failures.isEmpty {
                    xml += open + "/>\n"
                } else {
                    xml += open + ">\n"
                    xml += #"      <failure message="\#(Self.xml(testCase.failures[0]))" type="violation">\#(Self.xml(testCase.failures.joined(separator: "\n")))</failure>"# + "\n"
                    xml += "    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
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
        if let information = totals.information { text += "; \(information) information" }
        if let versions {
            let groups = versions.filter { $0.calls > 0 }.map { "\($0.version) \($0.calls) (\($0.invalidCalls) invalid)" }
            text += "; calls by plan version: \(groups.isEmpty ? "none" : groups.joined(separator: ", "))"
        }
        if let forwarding {
            text += "; forwarded \(forwarding.forwarded), failed \(forwarding.failed), dropped \(forwarding.dropped)"
        }
        return text + (passed ? "; passed" : "; failed")
    }
}
