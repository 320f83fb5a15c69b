import Foundation
import Testing
@testable import _AnnaGeneratorCore

/// The JSON Schema editors use and the Swift validator must agree on which specs
/// are valid. Errors a schema cannot express (cross references, names after case
/// conversion, provider limits) are marked `# schema: valid` in their fixture.
@Suite struct SchemaAgreementTests {
    struct Verdict: Decodable {
        var file: String
        var valid: Bool
        var errors: [String]
    }

    @Test func schemaAndValidatorAgree() async throws {
        let fixtures = Fixtures.specs(in: "Valid") + Fixtures.specs(in: "Invalid") + Fixtures.specs(in: "Adversarial")
        let script = Fixtures.packageRoot.appending(path: "scripts/check-schema.py").path
        let schema = Fixtures.packageRoot.appending(path: "schema/anna.schema.json").path
        let (status, output) = try await SwiftCompiler.run([script, schema] + fixtures.map(\.path), executable: "python3")
        try #require(status == 0, "check-schema.py failed (needs python3 with jsonschema and PyYAML):\n\(output)")
        let verdicts = try output.split(separator: "\n").map { try JSONDecoder().decode(Verdict.self, from: Data($0.utf8)) }
        try #require(verdicts.count == fixtures.count)
        for (fixture, verdict) in zip(fixtures, verdicts) {
            let swiftValid = try Fixtures.check(fixture).spec != nil
            let schemaBlind = try Fixtures.schemaSeesItAsValid(fixture)
            let expected = swiftValid || schemaBlind
            #expect(verdict.valid == expected, "\(fixture.lastPathComponent): Swift says \(swiftValid ? "valid" : "invalid"), schema says \(verdict.valid ? "valid" : "invalid") \(verdict.errors)")
        }
    }
}
