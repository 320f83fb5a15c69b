import Foundation
import Testing
@testable import _AnnaGeneratorCore

/// Generated TypeScript against the real `tsc --strict` (Debian's node-typescript):
/// every spec in the repository, the 1,000-event spec and the compile-fail corpus in
/// one invocation.
@Suite(.enabled(if: ClientCompilers.isInstalled("tsc") || ClientCompilers.required, "tsc is not installed (apt-get install node-typescript)"))
struct TypeScriptClientTests {
    @Test func everySpecCompilesStrictAndTheCorpusFailsOnTheMarkedLines() async throws {
        let directory = try ClientCompilers.temporaryDirectory("typescript")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [URL] = []
        let specs = try ClientCompilers.repositorySpecs()
        #expect(specs.count >= 100, "found only \(specs.count) specs")
        for (index, spec) in specs.enumerated() {
            // Every other spec in snake_case, so both namings compile.
            let options = ClientOptions(naming: index % 2 == 0 ? "spec" : "snake_case")
            files.append(try ClientCompilers.generate(spec, .typescript, into: directory, name: "spec\(index).anna.ts", options: options))
        }
        for objects in [false, true] {
            let large = try await ClientCompilers.largeSpec(in: directory, objects: objects)
            files.append(try ClientCompilers.generate(large, .typescript, into: directory, name: "large\(objects ? "-objects" : "").anna.ts"))
        }
        let shop = Fixtures.packageRoot.appending(path: "Examples/Shop/Sources/ShopAnalytics/shop.anna.yml")
        files.append(try ClientCompilers.generate(shop, .typescript, into: directory, name: "shop.anna.ts"))
        let corpus = ClientCompilers.corpus("ts")
        #expect(corpus.count >= 5)
        for file in corpus {
            let copy = directory.appending(path: file.lastPathComponent)
            try FileManager.default.copyItem(at: file, to: copy)
            files.append(copy)
        }

        let (status, output) = try await SwiftCompiler.run(
            ["--strict", "--noEmit", "--noUnusedLocals", "--noUnusedParameters", "--noImplicitReturns", "--pretty", "false"]
                + files.map(\.path),
            executable: "tsc")
        let errors = ClientCompilers.errors(in: output)
        #expect(status != 0, "the compile-fail corpus compiled")
        let corpusNames = Set(corpus.map(\.lastPathComponent))
        let outside = errors.filter { !corpusNames.contains($0.file) || $0.file.hasPrefix("valid-usage") }
        #expect(outside.isEmpty, "generated code or valid usage that does not compile:\n\(outside.map(\.description).joined(separator: "\n"))")
        for file in corpus where !file.lastPathComponent.hasPrefix("valid-usage") {
            let expected = try ClientCompilers.expectedErrorLines(file)
            let lines = Set(errors.filter { $0.file == file.lastPathComponent }.map(\.line))
            #expect(!expected.isEmpty && lines == Set(expected), "\(file.lastPathComponent): errors on lines \(lines.sorted()), expected \(expected):\n\(output)")
        }
    }
}
