import Anna
import Foundation
import Testing

/// The configuration table of IdentityConsentAndLifecycle.md is what an app writes an
/// initializer from: its rows follow `AnalyticsService.Configuration.init`'s arguments,
/// in order, and its defaults are the code's.
@Suite struct ConfigurationTableTests {
    static let article = ArticleSnippetsFile.packageRoot.appending(path: "Sources/Anna/Anna.docc/IdentityConsentAndLifecycle.md")
    static let source = ArticleSnippetsFile.packageRoot.appending(path: "Sources/Anna/Service/AnalyticsService+Configuration.swift")

    /// The table's rows: field name and default column.
    static func rows() throws -> [(field: String, defaultValue: String)] {
        let text = try String(contentsOf: article, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| Field | Default |") }) else { return [] }
        return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            return (cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[2])
        }
    }

    /// The initializer's argument labels, in order, read from the source.
    static func initializerArguments() throws -> [String] {
        let text = try String(contentsOf: source, encoding: .utf8)
        guard let start = text.range(of: "public init(\n") , let end = text.range(of: "\n        ) {", range: start.upperBound..<text.endIndex)
        else { return [] }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            line.trimmingCharacters(in: .whitespaces).split(separator: ":").first.map(String.init)
        }
    }

    @Test func rowsFollowTheInitializersArguments() throws {
        let arguments = try Self.initializerArguments()
        #expect(arguments.count >= 15)
        #expect(try Self.rows().map(\.field) == arguments)
    }

    @Test func lifecycleIsNoneByDefaultInCodeAndTable() throws {
        #expect(AnalyticsService.Configuration().lifecycle == nil)
        let row = try #require(try Self.rows().first { $0.field == "lifecycle" })
        #expect(row.defaultValue.hasPrefix("`nil`"))
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        #expect(!text.contains("| `lifecycle` | `AppLifecycle.platform`"))
    }
}
