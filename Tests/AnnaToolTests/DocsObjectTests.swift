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
        #expect(page.contains("| `products` | [`[CartLine]`](#type-cartline) | yes |"))
        #expect(page.contains("| `home` | [`PostalAddress`](#type-postaladdress) | yes |"))
        #expect(page.contains("\n## Object types\n\n### <a id=\"type-cartline\"></a>CartLine\n\nA product in a cart or an order.\n"))
        #expect(page.contains("| `street` | `string` | yes |  | yes | physicalAddress |  |"))
        #expect(page.contains("| `brand` | [`Maker?`](#type-maker) | no |"))
        // The inline enum of a property is the property's, not a declared type.
        #expect(!page.contains("| `CartLineCategory` |"))
        let html = try String(contentsOf: output.appending(path: "index.html"), encoding: .utf8)
        #expect(html.contains(#""kind":"type""#) && html.contains(#""object":"CartLine""#))
    }

    @Test(.enabled(if: Chromium.path != nil, "chromium is not installed; the browser check is skipped"))
    func theHTMLPageLinksParametersToTheirTypes() throws {
        let output = try Self.generate()
        defer { try? FileManager.default.removeItem(at: output) }
        let page = "file://\(output.appending(path: "index.html").path)"
        let result = try AnnaTool.run(
            ["--headless", "--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND", "--dump-dom", page],
            executable: URL(fileURLWithPath: Chromium.path!))
        #expect(result.stdout.contains(#"<article id="type-CartLine" data-name="CartLine" data-kind="type""#))
        #expect(result.stdout.contains(##"<a href="#type-CartLine">[CartLine]</a>"##))
    }
}
