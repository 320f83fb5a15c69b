import Foundation

/// The Swift file that compiles the documents' marked blocks: `ArticleSnippets.swift`,
/// checked in beside this one and compared with the documents by
/// `ArticleSnippetsFileTests`.
enum ArticleSnippetsFile {
    /// The documents read, relative to the package root, in order.
    static let documents: [String] = {
        let catalog = packageRoot.appending(path: "Sources/Anna/Anna.docc")
        let articles = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
        return ["README.md"] + articles.filter { $0.hasSuffix(".md") }.sorted().map { "Sources/Anna/Anna.docc/\($0)" }
    }()

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The checked-in file.
    static let path = packageRoot.appending(path: "Tests/AnnaDocumentationTests/ArticleSnippets.swift")

    /// The file's contents for the documents as they are now.
    static func render() throws -> String {
        var snippets: [ArticleSnippet] = []
        for document in documents {
            let text = try String(contentsOf: packageRoot.appending(path: document), encoding: .utf8)
            snippets += try ArticleSnippet.extract(from: text, file: String(document.split(separator: "/").last ?? ""))
        }
        // iOS blocks are whole files of an app, compiled against an iOS SDK by
        // scripts/check-apple-sdk.sh.
        snippets.removeAll { $0.kind == .ios }
        let imports = Set(["Foundation", "Testing"] + snippets.flatMap(\.imports)).sorted()
        var text = """
            // Generated from the Swift blocks marked `<!-- compiled: … -->` in README.md and
            // Sources/Anna/Anna.docc/*.md. Do not edit: change the document, then run
            // ANNA_RECORD_SNIPPETS=1 swift test --filter ArticleSnippetsFileTests (if this file no
            // longer compiles, empty it first)

            """
        text += imports.map { "import \($0)\n" }.joined()
        for snippet in snippets where snippet.kind == .declarations {
            text += "\n// MARK: \(snippet.file)\n\n" + snippet.lines.joined(separator: "\n") + "\n"
        }
        text += "\n/// The documents' statements, each run as a test.\n@Suite struct ArticleSnippets {\n"
        var counts: [String: Int] = [:]
        for snippet in snippets where snippet.kind == .test {
            let base = String(snippet.file.dropLast(".md".count))
            counts[base, default: 0] += 1
            // `README` → `readme1`, `FocusPaths` → `focusPaths1`.
            let stem = base == base.uppercased() ? base.lowercased() : base.prefix(1).lowercased() + base.dropFirst()
            let name = stem + String(counts[base, default: 0])
            text += "    /// \(snippet.file), Swift block \(counts[base, default: 0]).\n"
            text += "    @Test func \(name)() async throws {\n"
            text += snippet.lines.map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n") + "\n    }\n\n"
        }
        if text.hasSuffix("\n\n") { text.removeLast() }
        return text + "}\n"
    }
}
