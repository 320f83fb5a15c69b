import Foundation
import Testing

/// `anna docs` for object types: a table per type, linked from the parameters of it,
/// in the Markdown and in the HTML page (read in chromium when it is installed).
@Suite struct DocsObjectTests {
    static func generate() throws -> URL {
        let output = try AnnaTool.temporaryDirectory()
        let spec = AnnaTool.packageRoot.appending(path: "Tests/AnnaGeneratorTests/Fixtures/Valid/objects.anna.yml").path
        let result = try AnnaTool.run(["docs", spec, "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        return output
    }

    @Test func objectTypesHaveTablesThatTheirParametersLinkTo() throws {
        let output = try Self.generate()
        defer { try? FileManager.default.removeItem(at: output) }
        let page = try String(contentsOf: output.appending(path: "objects.md"), encoding: .utf8)
        #expect(page.contains("| `products` | [`[Product]`](#type-product) | yes |"))
        #expect(page.contains("| `home` | [`Address`](#type-address) | yes |"))
        #expect(page.contains("\n## Object types\n\n### <a id=\"type-product\"></a>Product\n\nA product in a cart or an order.\n"))
        #expect(page.contains("| `street` | `string` | yes |  | yes | physicalAddress |  |"))
        #expect(page.contains("| `brand` | [`Brand?`](#type-brand) | no |"))
        // The inline enum of a property is the property's, not a declared type.
        #expect(!page.contains("| `ProductCategory` |"))
        let html = try String(contentsOf: output.appending(path: "index.html"), encoding: .utf8)
        #expect(html.contains(#""kind":"type""#) && html.contains(#""object":"Product""#))
    }

    @Test(.enabled(if: Chromium.path != nil, "chromium is not installed; the browser check is skipped"))
    func theHTMLPageLinksParametersToTheirTypes() throws {
        let output = try Self.generate()
        defer { try? FileManager.default.removeItem(at: output) }
        let page = "file://\(output.appending(path: "index.html").path)"
        let result = try AnnaTool.run(
            ["--headless", "--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND", "--dump-dom", page],
            executable: URL(fileURLWithPath: Chromium.path!))
        #expect(result.stdout.contains(#"<article id="type-Product" data-name="Product" data-kind="type""#))
        #expect(result.stdout.contains(##"<a href="#type-Product">[Product]</a>"##))
    }
}
