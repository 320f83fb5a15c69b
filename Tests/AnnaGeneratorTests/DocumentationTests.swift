import Foundation
import Testing
@testable import _AnnaGeneratorCore

/// The README's spec is the first one a newcomer copies: it must be valid.
@Suite struct DocumentationTests {
    @Test func readmeSpecIsValid() throws {
        let readme = try String(contentsOf: Fixtures.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## The tracking spec"))
        let start = try #require(readme.range(of: "```yaml\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let (spec, diagnostics) = AnnaGenerator().check(Array(readme[start.upperBound..<end.lowerBound].utf8), file: "README.md")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(spec?.events.count == 3)
    }
}
