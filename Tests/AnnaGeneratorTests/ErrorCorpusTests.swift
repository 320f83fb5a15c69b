import Foundation
import Testing
@testable import _AnnaGeneratorCore

/// One fixture per diagnostic; each states its exact diagnostics in `# expect:` lines.
@Suite struct ErrorCorpusTests {
    static let fixtures = Fixtures.specs(in: "Invalid")

    @Test func corpusIsThere() {
        #expect(Self.fixtures.count >= 80)
    }

    @Test(arguments: fixtures)
    func diagnosticsAreExactlyTheExpectedOnes(_ fixture: URL) throws {
        let expected = try Fixtures.expectations(fixture)
        #expect(!expected.isEmpty, "\(fixture.lastPathComponent) has no '# expect:' line")
        let (spec, diagnostics) = try Fixtures.check(fixture)
        #expect(diagnostics.map(\.descriptionWithoutFile) == expected)
        #expect(diagnostics.allSatisfy { $0.location.file == fixture.lastPathComponent && $0.location.line >= 1 && $0.location.column >= 1 })
        let hasErrors = diagnostics.contains { $0.severity == .error }
        #expect((spec == nil) == hasErrors, "a spec comes back exactly when there is no error")
    }
}
