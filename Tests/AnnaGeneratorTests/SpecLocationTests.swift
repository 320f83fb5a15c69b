import Foundation
import Testing
@_spi(Generated) import Anna
@testable import _AnnaGeneratorCore

/// A catalog written to a file finds its spec relative to that file, so generated
/// code committed to a repository names the spec on every machine that builds it.
@Suite struct SpecLocationTests {
    @Test(arguments: [
        // spec, generated file, current folder, the spec seen from the file's folder
        ("Sources/App/app.anna.yml", "Sources/App/AnnaGenerated/app.anna.swift", "/repo", "../app.anna.yml"),
        ("/repo/Sources/App/app.anna.yml", "/repo/Sources/App/AnnaGenerated/app.anna.swift", "/elsewhere", "../app.anna.yml"),
        ("app.anna.yml", "app.anna.swift", "/repo", "app.anna.yml"),
        ("Specs/shop.anna.yml", "Sources/Shop/Generated/shop.anna.swift", "/repo", "../../../Specs/shop.anna.yml"),
        ("./Specs/../Specs/shop.anna.yml", "/repo/Gen//x.anna.swift", "/repo", "../Specs/shop.anna.yml"),
        ("../shared/a.anna.yml", "Out/a.anna.swift", "/work/app", "../../shared/a.anna.yml"),
        ("/a.anna.yml", "/a.anna.swift", "/", "a.anna.yml"),
    ])
    func theSpecIsSeenFromTheGeneratedFilesFolder(_ spec: String, _ output: String, _ current: String, _ expected: String) {
        let relative = SpecLocation.relativePath(of: spec, fromFolderOf: output, currentDirectory: current)
        #expect(relative == expected)
        // What the generated code does with it: resolved against the file's own path
        // (`#filePath`), it is the spec's path made absolute.
        let generatedFile = SpecLocation.absolute(output, in: current)
        #expect(EventCatalog.specPath(relative, besideGeneratedFile: generatedFile) == SpecLocation.absolute(spec, in: current))
    }

    @Test func theRuntimeResolvesRelativeAndAbsolutePaths() {
        #expect(EventCatalog.specPath("../app.anna.yml", besideGeneratedFile: "/r/Sources/App/Gen/app.anna.swift") == "/r/Sources/App/app.anna.yml")
        #expect(EventCatalog.specPath("./x/./y.anna.yml", besideGeneratedFile: "/r/g.swift") == "/r/x/y.anna.yml")
        #expect(EventCatalog.specPath("/abs/y.anna.yml", besideGeneratedFile: "/r/g.swift") == "/abs/y.anna.yml")
        // A relative #filePath (a compiler run from the package folder) stays relative.
        #expect(EventCatalog.specPath("../../y.anna.yml", besideGeneratedFile: "Gen/g.swift") == "../y.anna.yml")
        #expect(EventCatalog.specPath("y.anna.yml", besideGeneratedFile: "g.swift") == "y.anna.yml")
        // Above the root, `..` goes.
        #expect(EventCatalog.specPath("../../../y.anna.yml", besideGeneratedFile: "/r/g.swift") == "/y.anna.yml")
    }

    /// The string form (golden files, the library's `generate(_:file:)`) keeps the path
    /// as given; a written file says where the spec is from it.
    @Test func aWrittenCatalogNamesItsSpecRelativeToItself() throws {
        let spec = "anna: 1\nevents:\n  cartOpened: {}\n"
        let (source, _) = try AnnaGenerator().generate(Array(spec.utf8), file: "Sources/App/x.anna.yml")
        #expect(source.contains("return \"Sources/App/x.anna.yml\""))
        let directory = FileManager.default.temporaryDirectory.appending(path: "anna-location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appending(path: "Generated/x.anna.swift").path
        let (_, written, _) = try AnnaGenerator().generate(Array(spec.utf8), file: directory.appending(path: "x.anna.yml").path, writingTo: output)
        #expect(try written.get())
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("return EventCatalog.specPath(\"../x.anna.yml\", besideGeneratedFile: #filePath)"))
    }
}
