import Foundation
@testable import _AnnaGeneratorCore
@testable import _AnnaGovernance

/// The tracking plans under `Fixtures/Import` and what importing them gives.
enum ImportFixtures {
    static let directory = Fixtures.directory.appending(path: "Import", directoryHint: .isDirectory)
    static let expected = directory.appending(path: "Expected", directoryHint: .isDirectory)

    /// The `*.json` plans, sorted.
    static let plans: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && $0 != "malformed.json" }.sorted()
    }()

    /// Imports a fixture under its bare file name, as the expected files are written.
    static func importPlan(_ name: String, namespace: String? = nil) throws -> PlanImporter.Result {
        try PlanImporter(namespace: namespace).importPlan(try Fixtures.bytes(directory.appending(path: name)), file: name)
    }

    /// Imports JSON text written in a test.
    static func importText(_ json: String) throws(SpecError) -> PlanImporter.Result {
        try PlanImporter().importPlan(Array(json.utf8), file: "plan.json")
    }

    /// The diagnostics as `line:column: severity: message` lines.
    static func lines(_ result: PlanImporter.Result) -> [String] {
        result.diagnostics.map(\.descriptionWithoutFile)
    }

    /// A plan with one track event whose properties schema is `properties`.
    static func event(_ properties: String, required: [String] = [], name: String = "Opened") -> String {
        let required = required.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            {"rules": [{"key": "\(name)", "type": "TRACK", "version": 1, "jsonSchema": {"properties": {"properties": {
            "type": "object", "required": [\(required)], "properties": \(properties)}}}}]}
            """
    }
}
