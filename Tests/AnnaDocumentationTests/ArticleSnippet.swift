import Foundation

/// A code block of the README or a DocC article marked for compilation: the line
/// `<!-- compiled: test -->` (a test body, run), `<!-- compiled: declarations -->`
/// (file-scope declarations) or `<!-- compiled: ios -->` (an iOS app's own file,
/// compiled against an iOS SDK by `scripts/check-apple-sdk.sh`, not here) right before
/// a fenced Swift block.
struct ArticleSnippet: Equatable {
    /// How the block is compiled.
    enum Kind: String {
        /// Statements: the body of an `async throws` test, which runs.
        case test
        /// Types and functions at file scope, for the tests to use.
        case declarations
        /// A whole file of an iOS app: compiled for iOS by `scripts/check-apple-sdk.sh`.
        case ios
    }

    /// The document's file name: `Testing.md`.
    var file: String
    /// How it is compiled.
    var kind: Kind
    /// The block's lines without their common indentation and without `import` lines.
    var lines: [String]
    /// The modules the block imports.
    var imports: [String]

    /// The marked blocks of a document, in order.
    /// - Throws: ``ArticleSnippetError`` for a marker not followed by a Swift block, or
    ///   a block that is never closed.
    static func extract(from text: String, file: String) throws -> [ArticleSnippet] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var snippets: [ArticleSnippet] = []
        var index = 0
        while index < lines.count {
            let marker = lines[index].trimmingCharacters(in: .whitespaces)
            index += 1
            guard marker.hasPrefix("<!-- compiled:") else { continue }
            let name = marker.dropFirst("<!-- compiled:".count).replacingOccurrences(of: "-->", with: "")
                .trimmingCharacters(in: .whitespaces)
            guard let kind = Kind(rawValue: name) else {
                throw ArticleSnippetError(file: file, line: index, message: "unknown marker '\(name)'; write test, declarations or ios")
            }
            guard index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
                throw ArticleSnippetError(file: file, line: index, message: "a compiled marker must be followed by a ```swift block")
            }
            let indentation = lines[index].prefix { $0 == " " }.count
            index += 1
            var body: [String] = []
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(String(lines[index].dropFirst(min(indentation, lines[index].prefix { $0 == " " }.count))))
                index += 1
            }
            guard index < lines.count else {
                throw ArticleSnippetError(file: file, line: index, message: "the Swift block is not closed")
            }
            index += 1
            let imports = body.filter { $0.hasPrefix("import ") }.map { String($0.dropFirst("import ".count)) }
            snippets.append(ArticleSnippet(file: file, kind: kind, lines: body.filter { !$0.hasPrefix("import ") }, imports: imports))
        }
        return snippets
    }
}

/// A marked block that cannot be extracted, at its line in the document.
struct ArticleSnippetError: Error, CustomStringConvertible {
    var file: String
    var line: Int
    var message: String
    var description: String { "\(file):\(line): error: \(message)" }
}
