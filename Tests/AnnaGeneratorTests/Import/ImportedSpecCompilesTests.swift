import Foundation
import Testing
@testable import _AnnaGeneratorCore
@testable import _AnnaGovernance

/// The proof that an import is usable: the written spec lints without a diagnostic and
/// generates Swift that compiles (swiftc, Swift 6 mode, warnings as errors).
@Suite struct ImportedSpecCompilesTests {
    static let plans = ImportFixtures.plans

    @Test(arguments: plans)
    func importedSpecLintsCleanAndCompiles(_ plan: String) async throws {
        let result = try ImportFixtures.importPlan(plan, namespace: "Imported")
        let file = String(plan.dropLast(".json".count)) + ".anna.yml"
        let (spec, diagnostics) = AnnaGenerator().check(Array(result.spec.utf8), file: file)
        #expect(diagnostics.isEmpty, "\(file):\n\(diagnostics.map(\.description).joined(separator: "\n"))\n\(result.spec)")
        #expect(spec != nil)
        let source = try AnnaGenerator().generate(Array(result.spec.utf8), file: file).source
        let failure = try await SwiftCompiler.shared.typecheck(source, named: AnnaGenerator.outputFileName(for: file))
        #expect(failure == nil, "\(file) generated code that does not compile:\n\(failure ?? "")")
    }
}
