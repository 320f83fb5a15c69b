import Foundation
import Testing
@testable import _AnnaClientGenerator
@testable import _AnnaGeneratorCore

/// Generated Kotlin against a real `kotlinc` (Debian's `kotlin` package, kotlinc-jvm
/// 1.3): the repository's specs, the 1,000-event spec, the README's Kotlin and the
/// compile-fail corpus in one invocation, since the compiler takes seconds to start.
/// kotlinc 1.3 takes minutes of CPU for all of them, so the `anna diff` fixtures
/// (pairs of small variants of one spec, which TypeScriptClientTests compiles) are
/// left to TypeScript.
// Serialized, and kotlinc at a lower priority (`nice`): two kotlinc JVMs at once on a
// two-core machine starved the time-limited tests running beside them.
@Suite(.serialized, .enabled(if: ClientCompilers.isInstalled("kotlinc") || ClientCompilers.required, "kotlinc is not installed (apt-get install kotlin)"))
struct KotlinClientTests {
    @Test func everySpecCompilesAndTheCorpusFailsOnTheMarkedLines() async throws {
        let directory = try ClientCompilers.temporaryDirectory("kotlin")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [URL] = []
        let specs = try ClientCompilers.repositorySpecs().filter { !$0.path.contains("/AnnaToolTests/Fixtures/diff/") }
        #expect(specs.count >= 30, "found only \(specs.count) specs")
        for (index, spec) in specs.enumerated() {
            // Every other spec in snake_case, so both namings compile; a package per spec.
            let options = ClientOptions(naming: index % 2 == 0 ? .spec : .snakeCase, kotlinPackage: "specs.s\(index)")
            files.append(try ClientCompilers.generate(spec, .kotlin, into: directory, name: "spec\(index).anna.kt", options: options))
        }
        let large = try await ClientCompilers.largeSpec(in: directory)
        files.append(try ClientCompilers.generate(large, .kotlin, into: directory, name: "large.anna.kt", options: ClientOptions(kotlinPackage: "large")))
        let shop = Fixtures.packageRoot.appending(path: "Examples/Shop/Sources/ShopAnalytics/shop.anna.yml")
        files.append(try ClientCompilers.generate(shop, .kotlin, into: directory, name: "shop.anna.kt", options: ClientOptions(kotlinPackage: "com.example.shop")))
        let readme = try ClientCompilers.readmeBlocks("kotlin", fileExtension: "kt", into: directory)
        #expect(!readme.isEmpty, "README.md and ClientsInOtherLanguages.md have no <!-- client: kotlin --> block")
        files += readme
        let corpus = ClientCompilers.corpus("kt")
        #expect(corpus.count >= 5)
        files += corpus

        // kotlinc's script gives the JVM 256 MB unless JAVA_OPTS says otherwise.
        let (status, output) = try await SwiftCompiler.run(
            ["-n", "10", "env", "JAVA_OPTS=-Xmx1g", "kotlinc", "-nowarn", "-d", directory.appending(path: "classes").path] + files.map(\.path),
            executable: "nice")
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

    /// The JVM runs the generated client and prints what `wire.ts` prints on Node.
    @Test func theJVMSendsTheWireFormAndReportsViolations() async throws {
        let directory = try ClientCompilers.temporaryDirectory("kotlin-run")
        defer { try? FileManager.default.removeItem(at: directory) }
        let shop = Fixtures.packageRoot.appending(path: "Examples/Shop/Sources/ShopAnalytics/shop.anna.yml")
        let client = try ClientCompilers.generate(shop, .kotlin, into: directory, name: "shop.anna.kt", options: ClientOptions(kotlinPackage: "com.example.shop"))
        let classes = directory.appending(path: "classes").path
        let (status, output) = try await SwiftCompiler.run(
            ["-n", "10", "env", "JAVA_OPTS=-Xmx512m", "kotlinc", "-nowarn", "-d", classes, client.path, Fixtures.directory.appending(path: "ClientRun/Wire.kt").path],
            executable: "nice")
        try #require(status == 0, "kotlinc failed:\n\(output)")
        let (exit, printed) = try await SwiftCompiler.run(["-cp", classes, "wire.WireKt"], executable: "kotlin")
        try #require(exit == 0, "kotlin failed:\n\(printed)")
        #expect(try ClientCompilers.parsedLines(printed) == ClientCompilers.expectedWire(), "the JVM printed:\n\(printed)")
    }
}
