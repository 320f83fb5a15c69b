import Foundation
import Testing

/// The documents' marked Swift blocks are compiled (and run) through
/// `ArticleSnippets.swift`; this keeps that file equal to what the documents say now.
@Suite struct ArticleSnippetsFileTests {
    @Test func theCheckedInSnippetsMatchTheDocuments() throws {
        let expected = try ArticleSnippetsFile.render()
        if ProcessInfo.processInfo.environment["ANNA_RECORD_SNIPPETS"] == "1" {
            try expected.write(to: ArticleSnippetsFile.path, atomically: true, encoding: .utf8)
        }
        let actual = (try? String(contentsOf: ArticleSnippetsFile.path, encoding: .utf8)) ?? ""
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let first = Array(zip(expectedLines, actualLines)).firstIndex { $0.0 != $0.1 } ?? min(expectedLines.count, actualLines.count)
        #expect(
            expected == actual,
            """
            ArticleSnippets.swift differs from the documents' marked blocks at line \(first + 1): \
            run ANNA_RECORD_SNIPPETS=1 swift test --filter ArticleSnippetsFileTests, then build again
            """)
    }

    @Test func everyDocumentHasBlocksAndTheMarkersAreWellFormed() throws {
        for document in ArticleSnippetsFile.documents {
            let text = try String(contentsOf: ArticleSnippetsFile.packageRoot.appending(path: document), encoding: .utf8)
            _ = try ArticleSnippet.extract(from: text, file: document)
        }
        #expect(ArticleSnippetsFile.documents.count > 10)
    }

    @Test func extractionStripsIndentationAndImports() throws {
        let text = """
            - A list item:

              <!-- compiled: test -->
              ```swift
              import AnnaTesting
              let recorder = RecordingProvider()
                  _ = recorder
              ```
            """
        let snippets = try ArticleSnippet.extract(from: text, file: "X.md")
        #expect(snippets == [ArticleSnippet(
            file: "X.md", kind: .test, lines: ["let recorder = RecordingProvider()", "    _ = recorder"], imports: ["AnnaTesting"])])
        #expect(throws: ArticleSnippetError.self) { try ArticleSnippet.extract(from: "<!-- compiled: test -->\n```yaml\n```", file: "Y.md") }
    }
}

/// The spec the snippets compile against is the README's, byte for byte.
@Suite struct DocumentationSpecTests {
    @Test func theSpecCompiledHereIsTheReadmesSpec() throws {
        let readme = try String(contentsOf: ArticleSnippetsFile.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## The tracking spec"))
        let start = try #require(readme.range(of: "```yaml\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let spec = try String(
            contentsOf: ArticleSnippetsFile.packageRoot.appending(path: "Tests/AnnaDocumentationTests/catalog.anna.yml"), encoding: .utf8)
        #expect(String(readme[start.upperBound..<end.lowerBound]) == spec, "copy the README's spec to Tests/AnnaDocumentationTests/catalog.anna.yml")
    }
}
