import Foundation
import Testing
@testable import _AnnaGeneratorCore

/// Generated Swift is compared with golden files that the AnnaGoldenTests target
/// compiles and exercises: the fixture specs and the specs teams copy from
/// Examples/Specs. `ANNA_RECORD_GOLDEN=1 swift test` re-records them.
@Suite struct GoldenFileTests {
    static let specs = Fixtures.specs(in: "Valid") + Fixtures.exampleSpecs

    @Test func theExampleSpecsAreThere() {
        #expect(Fixtures.exampleSpecs.map(\.lastPathComponent) == ["ga4-ecommerce.anna.yml", "segment-ecommerce.anna.yml"])
    }
    static let goldenDirectory = Fixtures.packageRoot.appending(path: "Tests/AnnaGoldenTests/Generated", directoryHint: .isDirectory)

    @Test(arguments: specs)
    func generatedSourceMatchesGoldenFile(_ spec: URL) throws {
        let (source, warnings) = try AnnaGenerator().generate(try Fixtures.bytes(spec), file: spec.lastPathComponent)
        #expect(warnings.isEmpty)
        let golden = Self.goldenDirectory.appending(path: AnnaGenerator.outputFileName(for: spec.path))
        if ProcessInfo.processInfo.environment["ANNA_RECORD_GOLDEN"] == "1" {
            try AnnaGenerator.writeIfChanged(source, to: golden.path)
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(source == expected, "\(golden.lastPathComponent) is out of date; run ANNA_RECORD_GOLDEN=1 swift test and review the diff")
    }

    @Test(arguments: specs)
    func generationIsDeterministic(_ spec: URL) throws {
        let bytes = try Fixtures.bytes(spec)
        let first = try AnnaGenerator().generate(bytes, file: spec.lastPathComponent).source
        let second = try AnnaGenerator().generate(bytes, file: spec.lastPathComponent).source
        #expect(first == second)
    }
}
