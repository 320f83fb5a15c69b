import Foundation
import Testing

/// `anna docs`: the Markdown pages byte for byte, and the HTML page opened in a real
/// headless browser (Debian's chromium), searched and filtered through its address.
/// `ANNA_RECORD_GOLDEN=1` rewrites the expected Markdown.
@Suite struct DocsTests {
    static let folder = AnnaTool.fixtures.appending(path: "docs", directoryHint: .isDirectory)

    /// Runs `anna docs` on the fixture specs into a new folder.
    static func generate() throws -> URL {
        let output = try AnnaTool.temporaryDirectory()
        let result = try AnnaTool.run(["docs", "specs/A/plan.anna.yml", "specs/B", "--output", output.path], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "anna docs: wrote 4 files to \(output.path)\n")
        return output
    }

    @Test func markdownPages() throws {
        let output = try Self.generate()
        defer { try? FileManager.default.removeItem(at: output) }
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        // Two specs named plan.anna.yml get a page each.
        #expect(files == ["A_plan.md", "B_plan.md", "index.html", "index.md"])
        for name in ["A_plan.md", "B_plan.md", "index.md"] {
            try DiffTests.expect(
                try String(contentsOf: output.appending(path: name), encoding: .utf8),
                matches: Self.folder.appending(path: "expected/\(name)"))
        }
        let page = try String(contentsOf: output.appending(path: "A_plan.md"), encoding: .utf8)
        #expect(page.contains("&lt;script&gt;alert('x')&lt;/script&gt; | pipes &amp; ampersands"))
        #expect(!page.contains("<script>"))
    }

    @Test func theHTMLPageIsSelfContained() throws {
        let output = try Self.generate()
        defer { try? FileManager.default.removeItem(at: output) }
        let html = try String(contentsOf: output.appending(path: "index.html"), encoding: .utf8)
        #expect(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\""))
        for reference in ["src=", "href=", "http://", "https://", "@import", "url("] {
            #expect(!html.contains(reference), "\(reference)")
        }
        // The spec's text sits in the JSON data with `<` escaped, so it cannot close the script.
        #expect(html.components(separatedBy: "</script>").count == 3)
        #expect(html.contains("\\u003cscript>alert('x')\\u003c/script>"))
    }

    @Test func anInvalidSpecWritesNothing() throws {
        let output = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        try "anna: 1\nevents:\n  opened:\n    parameters:\n      title: strng\n"
            .write(to: output.appending(path: "bad.anna.yml"), atomically: true, encoding: .utf8)
        let result = try AnnaTool.run(["docs", "bad.anna.yml", "--output", "plan"], in: output)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("bad.anna.yml:5:14: error: unknown type 'strng'"))
        #expect(!FileManager.default.fileExists(atPath: output.appending(path: "plan").path))
    }
}

/// The HTML page in Debian's chromium: `--dump-dom` prints the document after its
/// script ran, so the test reads which items the filters left visible.
@Suite(.enabled(if: Chromium.path != nil, "chromium is not installed (apt-get install chromium); the browser test is skipped"))
struct DocsBrowserTests {
    static var chromium: String? { Chromium.path }

    /// The names of the visible items for an address fragment, and the count the page shows.
    static func visible(_ fragment: String, in output: URL) throws -> (names: [String], count: String) {
        let page = "file://\(output.appending(path: "index.html").path)\(fragment)"
        let result = try AnnaTool.run(
            ["--headless", "--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND", "--dump-dom", page],
            executable: URL(fileURLWithPath: chromium!))
        #expect(result.status == 0, "\(result.stderr)")
        let dom = result.stdout
        let names = dom.components(separatedBy: "<article ").dropFirst().compactMap { tag -> String? in
            guard tag.contains("data-visible=\"true\""), let start = tag.range(of: "data-name=\"") else { return nil }
            return String(tag[start.upperBound...].prefix { $0 != "\"" })
        }
        let count = dom.range(of: "<span id=\"count\">").map { String(dom[$0.upperBound...].prefix { $0 != "<" }) } ?? ""
        return (names, count)
    }

    @Test func searchAndFiltersThroughTheAddress() throws {
        let output = try DocsTests.generate()
        defer { try? FileManager.default.removeItem(at: output) }
        let all = try Self.visible("", in: output)
        #expect(all.names == ["categoryAdded", "categoryOpened", "legacyExport", "categories", "email", "theme", "invoicePaid"])
        #expect(all.count == "7 of 7")
        #expect(try Self.visible("#q=categor", in: output).names == ["categoryAdded", "categoryOpened", "categories"])
        // Search reads parameter names and descriptions too.
        #expect(try Self.visible("#q=typed", in: output).names == ["categoryAdded"])
        #expect(try Self.visible("#namespace=Billing", in: output).names == ["invoicePaid"])
        #expect(try Self.visible("#consent=marketing", in: output).names == ["legacyExport"])
        #expect(try Self.visible("#pii=yes", in: output).names == ["categoryAdded", "email"])
        #expect(try Self.visible("#provider=firebase", in: output).names == ["invoicePaid"])
        let combined = try Self.visible("#q=cat&pii=no&provider=amplitude", in: output)
        #expect(combined.names == ["categoryOpened", "categories"])
        #expect(combined.count == "2 of 7")
    }

    @Test func specTextStaysText() throws {
        let output = try DocsTests.generate()
        defer { try? FileManager.default.removeItem(at: output) }
        let page = "file://\(output.appending(path: "index.html").path)"
        let result = try AnnaTool.run(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page], executable: URL(fileURLWithPath: Self.chromium!))
        #expect(result.stdout.contains("&lt;script&gt;alert('x')&lt;/script&gt; | pipes &amp; ampersands"))
        // The page's own two scripts, no third from the spec.
        #expect(result.stdout.components(separatedBy: "<script").count == 3)
    }
}

/// Where Debian's chromium (or another Chromium) is, if installed.
enum Chromium {
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}
