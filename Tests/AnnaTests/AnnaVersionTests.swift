import Anna
import Foundation
import Testing

/// The version on the wire is ``AnalyticsContext/annaVersion``, and every place that quotes
/// Anna's version (the README's dependency lines, the tools' messages, the articles)
/// quotes that one.
@Suite struct AnnaVersionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theWireCarriesTheVersionConstant() {
        #expect(AnalyticsContext.anna.version == AnalyticsContext.annaVersion)
        #expect(AnalyticsContext.current().library.version == AnalyticsContext.annaVersion)
        #expect(AnalyticsContext.annaVersion.split(separator: ".").count == 3 && AnalyticsContext.annaVersion.allSatisfy { $0.isNumber || $0 == "." })
    }

    @Test func everyDependencyLineQuotesTheVersionConstant() throws {
        // `.package(url: "https://github.com/anna-analytics/anna", from: "0.1.0"`, also with escaped quotes.
        let pattern = try Regex(#"anna-analytics/anna\\?",\s*from:\s*\\?"([^"\\]+)"#)
        var quoted: [(file: String, version: String)] = []
        for file in try Self.files() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: pattern) {
                quoted.append((file.path.replacingOccurrences(of: Self.root.path + "/", with: ""), String(match.output[1].substring ?? "")))
            }
        }
        #expect(quoted.filter { $0.file == "README.md" }.count >= 2, "the README's dependency lines are found")
        let wrong = quoted.filter { $0.version != AnalyticsContext.annaVersion }
        #expect(wrong.isEmpty, "AnalyticsContext.annaVersion is \(AnalyticsContext.annaVersion): \(wrong.map { "\($0.file) says \($0.version)" })")
    }

    /// The README, CONTRIBUTING and every Swift and Markdown file under `Sources` and `Examples`.
    static func files() throws -> [URL] {
        var files = ["README.md", "CONTRIBUTING.md"].map { root.appendingPathComponent($0) }
        for folder in ["Sources", "Examples"] {
            let walker = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                if url.lastPathComponent == ".build" { walker?.skipDescendants() }
                if ["swift", "md"].contains(url.pathExtension) { files.append(url) }
            }
        }
        return files
    }
}
