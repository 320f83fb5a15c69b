import Foundation
import Testing
@testable import _AnnaClientGenerator
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
            let options = ClientOptions(naming: index % 2 == 0 ? .spec : .snakeCase)
            files.append(try ClientCompilers.generate(spec, .typescript, into: directory, name: "spec\(index).anna.ts", options: options))
        }
        for objects in [false, true] {
            let large = try await ClientCompilers.largeSpec(in: directory, objects: objects)
            files.append(try ClientCompilers.generate(large, .typescript, into: directory, name: "large\(objects ? "-objects" : "").anna.ts"))
        }
        files.append(try ClientCompilers.generate(ClientCompilers.shopSpec, .typescript, into: directory, name: "shop.anna.ts"))
        let readme = try ClientCompilers.readmeBlocks("typescript", fileExtension: "ts", into: directory)
        #expect(!readme.isEmpty, "README.md and ClientsInOtherLanguages.md have no <!-- client: typescript --> block")
        files += readme
        let corpus = ClientCompilers.corpus("ts")
        #expect(corpus.count >= 5)
        for file in corpus {
            let copy = directory.appending(path: file.lastPathComponent)
            try FileManager.default.copyItem(at: file, to: copy)
            files.append(copy)
        }

        let (status, output) = try await SwiftCompiler.run(
            ["-n", "10", "tsc", "--strict", "--noEmit", "--noUnusedLocals", "--noUnusedParameters", "--noImplicitReturns", "--pretty", "false"]
                + files.map(\.path),
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

    /// Node runs the generated client: optionals left out, dates in ISO 8601 with
    /// milliseconds, objects in lists, enums by their wire values, globals merged, PII
    /// left out and violations reported, as `Wire.kt` on the JVM prints them too.
    @Test func nodeSendsTheWireFormAndReportsViolations() async throws {
        try #require(ClientCompilers.isInstalled("node") || ClientCompilers.required, "node is not installed")
        let directory = try ClientCompilers.temporaryDirectory("typescript-run")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = try await ClientCompilers.compileShop(
            with: [Fixtures.directory.appending(path: "ClientRun/wire.ts")], in: directory, flags: ["--target", "es2019"])
        let (exit, printed) = try await SwiftCompiler.run([out.appending(path: "wire.js").path], executable: "node")
        try #require(exit == 0, "node failed:\n\(printed)")
        #expect(try ClientCompilers.parsedLines(printed) == ClientCompilers.expectedWire(), "node printed:\n\(printed)")
    }

    /// Node runs `annaWebViewClient` of the Shop's module in both namings, compiled
    /// with ES2019's library and no DOM: outside the app each call goes to the page's
    /// client (without PII) or nowhere; with a fake `webkit.messageHandlers.anna`
    /// installed after the client was made, each call is posted as one JSON string of
    /// message format 1 (objects, lists of objects, optionals, dates and enums as the
    /// class sends them, the naming, the plan's context), and so are `reset`, opt-out
    /// and consent. `Fixtures/ClientRun/webview*.jsonl` hold the exact lines.
    @Test func nodePostsEachCallToTheWebViewsMessageHandler() async throws {
        try #require(ClientCompilers.isInstalled("node") || ClientCompilers.required, "node is not installed")
        let directory = try ClientCompilers.temporaryDirectory("typescript-webview")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = try await ClientCompilers.compileShop(
            with: [Fixtures.directory.appending(path: "ClientRun/webview.ts")], namings: ClientNaming.allCases, in: directory,
            flags: ["--noUnusedLocals", "--noUnusedParameters", "--target", "es2019", "--lib", "es2019"])
        for naming in ClientNaming.allCases {
            let (exit, printed) = try await SwiftCompiler.run([out.appending(path: "\(naming.rawValue)/webview.js").path], executable: "node")
            try #require(exit == 0, "node failed:\n\(printed)")
            let expected = Fixtures.directory.appending(path: "ClientRun/webview\(naming == .spec ? "" : "-" + naming.rawValue).jsonl")
            let lines = try ClientCompilers.parsedLines(String(contentsOf: expected, encoding: .utf8))
            #expect(try ClientCompilers.parsedLines(printed) == lines, "node printed with the naming \(naming.rawValue):\n\(printed)")
        }
    }

    /// The web-view lane of `scripts/one-wire/wire-calls.ts`, compiled as
    /// check-one-wire.py compiles it: `--webview-messages FILE` writes one line per call,
    /// each the JSON string posted, for the app's bridge to read on the Swift side.
    @Test func oneWiresWebViewLaneWritesOneMessageALine() async throws {
        try #require(ClientCompilers.isInstalled("node") || ClientCompilers.required, "node is not installed")
        let directory = try ClientCompilers.temporaryDirectory("typescript-webview-lane")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = try await ClientCompilers.compileShop(
            with: [Fixtures.packageRoot.appending(path: "scripts/one-wire/wire-calls.ts")], in: directory,
            flags: ["--target", "es2020", "--lib", "es2020"])
        let file = directory.appending(path: "messages.jsonl")
        try Data("a line of an earlier run\n".utf8).write(to: file)
        let (exit, printed) = try await SwiftCompiler.run(
            [out.appending(path: "wire-calls.js").path, "--webview-messages", file.path], executable: "node")
        try #require(exit == 0, "node failed:\n\(printed)")
        let text = try String(contentsOf: file, encoding: .utf8)
        let messages = try ClientCompilers.parsedLines(text)
        #expect(text.split(separator: "\n").count == messages.count && text.hasSuffix("}\n"))
        #expect(messages.allSatisfy { $0["anna"] as? Int == 1 && $0["naming"] as? String == "spec" })
        let calls = messages.map { "\($0["type"] ?? "")" + " " + "\($0["event"] ?? $0["name"] ?? $0["userId"] ?? "")" }
        #expect(calls == [
            "track orderPlaced", "track productAddedToCart", "track productAddedToCart", "track searchPerformed",
            "track checkoutStarted", "track reviewSubmitted", "track promoBannerTapped", "screen Product Detail",
            "identify customer-42", "track homeViewed", "screen Cart", "track appOpened",
        ], "\(text)")
        #expect(printed.contains(": 12 messages"), "\(printed)")
    }
}
