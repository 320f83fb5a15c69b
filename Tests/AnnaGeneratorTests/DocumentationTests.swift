import Foundation
import Testing
@testable import _AnnaGeneratorCore

/// The specs in the README and the DocC articles are the ones people copy: each must
/// be valid. A block is a spec when it has a top-level spec key; one without `anna: 1`
/// (a fragment showing some sections) is checked with that line added.
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

    @Test func everySpecInTheDocumentsLintsClean() throws {
        let catalog = Fixtures.packageRoot.appending(path: "Sources/Anna/Anna.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }.sorted()
        var checked = 0
        for document in ["README.md"] + articles.map({ "Sources/Anna/Anna.docc/\($0)" }) {
            let text = try String(contentsOf: Fixtures.packageRoot.appending(path: document), encoding: .utf8)
            for (line, block) in Self.yamlBlocks(in: text) where Self.isSpec(block) {
                let spec = block.contains("\nanna: 1") || block.hasPrefix("anna: 1") ? block : "anna: 1\n" + block
                let (_, diagnostics) = AnnaGenerator().check(Array(spec.utf8), file: "\(document):\(line)")
                #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(document), the block at line \(line): \(diagnostics)")
                checked += 1
            }
        }
        #expect(checked >= 5)
    }

    /// The fenced YAML blocks of a Markdown text, with the line their fence is on.
    static func yamlBlocks(in text: String) -> [(Int, String)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var blocks: [(Int, String)] = []
        var start: Int?
        var body: [Substring] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = start {
                if trimmed == "```" {
                    blocks.append((open + 1, body.joined(separator: "\n") + "\n"))
                    start = nil
                } else {
                    body.append(line)
                }
            } else if trimmed == "```yaml" {
                start = index
                body = []
            }
        }
        return blocks
    }

    /// Whether a block is a tracking spec: it has a top-level key only specs have.
    static func isSpec(_ block: String) -> Bool {
        let keys = ["anna:", "events:", "screens:", "traits:", "groupTraits:", "globals:", "types:", "tasks:"]
        return block.split(separator: "\n").contains { line in keys.contains { line.hasPrefix($0) } }
    }
}
