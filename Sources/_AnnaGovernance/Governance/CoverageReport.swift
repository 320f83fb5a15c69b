import Foundation
import _AnnaGeneratorCore

/// What `anna coverage` found for one declared event or screen.
package struct CoverageEntry: Sendable, Codable, Hashable {
    /// A place in a Swift file.
    package struct Use: Sendable, Codable, Hashable {
        package var file: String
        package var line: Int
        package var column: Int
        /// For test code: whether the use is inside an assertion (`expectEvents`,
        /// `expectScreens`, `#expect`, `XCTAssert…`).
        package var asserted: Bool

        package init(file: String, line: Int, column: Int, asserted: Bool = false) {
            self.file = file
            self.line = line
            self.column = column
            self.asserted = asserted
        }
    }

    /// `event` or `screen`.
    package var kind: String
    /// The name sent to providers.
    package var name: String
    /// The generated factory: `AnalyticsEvent.productViewed`.
    package var swift: String
    /// The spec that declares it.
    package var spec: String
    /// Where the spec declares it: the line of its name, 1-based.
    package var line: Int
    /// The column of its name, 1-based.
    package var column: Int
    /// Uses in app code (outside test folders).
    package var appUses: [Use]
    /// Uses in test code.
    package var testUses: [Use]
    /// The `match:` patterns of the tasks that report it.
    package var tasks: [String]
    /// Deprecated in its spec: being unused is then what is expected.
    package var deprecated: Bool

    package init(
        kind: String, name: String, swift: String, spec: String, line: Int, column: Int, appUses: [Use], testUses: [Use],
        tasks: [String], deprecated: Bool
    ) {
        self.line = line
        self.column = column
        self.deprecated = deprecated
        self.kind = kind
        self.name = name
        self.swift = swift
        self.spec = spec
        self.appUses = appUses
        self.testUses = testUses
        self.tasks = tasks
    }

    /// `reported` (app code or a task reports it), `tests-only`, or `unused`.
    package var status: String {
        if !appUses.isEmpty || !tasks.isEmpty { return "reported" }
        return testUses.isEmpty ? "unused" : "tests-only"
    }

    /// Whether a test asserts it.
    package var isAsserted: Bool { testUses.contains(where: \.asserted) }
}

/// The whole report and its renderings.
package struct CoverageReport: Sendable, Codable {
    package var entries: [CoverageEntry]

    package init(entries: [CoverageEntry]) {
        self.entries = entries
    }

    /// Declared and not deprecated, never reported by app code nor by a task.
    package var unused: [CoverageEntry] { entries.filter { $0.status != "reported" && !$0.deprecated } }

    /// The table `anna coverage` prints.
    package func text() -> String {
        func place(_ uses: [CoverageEntry.Use]) -> String {
            guard let first = uses.first else { return "-" }
            return "\(first.file):\(first.line)" + (uses.count > 1 ? " (+\(uses.count - 1))" : "")
        }
        var rows = [["kind", "name", "status", "app code", "tests", "tasks"]]
        for entry in entries {
            let tests = entry.testUses.isEmpty ? "-" : "\(entry.isAsserted ? "asserted" : "used") (\(entry.testUses.count))"
            rows.append([
                entry.kind, entry.name, entry.status, place(entry.appUses), tests,
                entry.tasks.isEmpty ? "-" : entry.tasks.joined(separator: "; "),
            ])
        }
        var text = PrivacyInventory.table(rows)
        let reported = entries.filter { $0.status == "reported" }.count
        let asserted = entries.filter(\.isAsserted).count
        text += "\n\(entries.count) declared: \(reported) reported, \(asserted) asserted by tests, \(entries.filter { $0.status == "tests-only" }.count) in tests only, \(entries.filter { $0.status == "unused" }.count) unused\n"
        // `file:line:column: warning:`, so CI and Xcode place each one on the spec's line.
        for entry in entries where entry.status != "reported" {
            let place = "\(entry.spec):\(entry.line):\(entry.column)"
            if entry.deprecated {
                text += "\(place): note: \(entry.kind) '\(entry.name)' is deprecated and no longer reported by app code; remove it once its data is no longer needed\n"
            } else {
                text += "\(place): warning: \(entry.kind) '\(entry.name)' is \(entry.status == "unused" ? "declared but never reported" : "reported in tests only"); report it from app code or a task, or deprecate it\n"
            }
        }
        return text
    }
}
