import Foundation
@testable import _AnnaGeneratorCore

/// Paths of the fixture corpus and the package, found from this file.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures", directoryHint: .isDirectory)

    static let packageRoot = directory
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `*.anna.yml` files of a fixture folder, sorted.
    static func specs(in folder: String) -> [URL] {
        let folder = directory.appending(path: folder, directoryHint: .isDirectory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".anna.yml") }.sorted().map { folder.appending(path: $0) }
    }

    /// The specs teams copy, in `Examples/Specs`, sorted.
    static var exampleSpecs: [URL] {
        let folder = packageRoot.appending(path: "Examples/Specs", directoryHint: .isDirectory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".anna.yml") }.sorted().map { folder.appending(path: $0) }
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    /// Lint a spec's bytes under its bare file name, as the fixtures' expectations are written.
    static func check(_ url: URL) throws -> (spec: TrackingSpec?, diagnostics: [Diagnostic]) {
        AnnaGenerator().check(try bytes(url), file: url.lastPathComponent)
    }

    /// Lines of the form `# expect: LINE:COL: severity: message` at the top of a fixture.
    static func expectations(_ url: URL) throws -> [String] {
        let text = String(decoding: try bytes(url), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { $0.hasPrefix("#") }
            .compactMap { line in line.hasPrefix("# expect: ") ? String(line.dropFirst("# expect: ".count)) : nil }
    }

    /// Whether a fixture says the JSON Schema cannot see its error (`# schema: valid`).
    static func schemaSeesItAsValid(_ url: URL) throws -> Bool {
        String(decoding: try bytes(url), as: UTF8.self).contains("\n# schema: valid\n")
    }
}
