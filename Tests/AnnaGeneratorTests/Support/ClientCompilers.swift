import Foundation
@testable import _AnnaClientGenerator
@testable import _AnnaGeneratorCore

/// Real compiles of generated TypeScript and Kotlin: Debian's `node-typescript`
/// (`tsc`) and `kotlin` (`kotlinc`), which `.ci/run` installs. Each test compiles all
/// its files in one invocation: `kotlinc` takes seconds to start.
enum ClientCompilers {
    /// Whether a command is on the PATH.
    static func isInstalled(_ command: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(command)")
        }
    }

    /// CI sets it: a missing compiler then fails the tests instead of skipping them.
    static var required: Bool {
        ProcessInfo.processInfo.environment["ANNA_REQUIRE_CLIENT_COMPILERS"] == "1"
    }

    /// Every valid spec in the repository (not the error corpus, nor the Swift-only
    /// adversarial specs the validator rejects), sorted by path.
    static func repositorySpecs() throws -> [URL] {
        let root = Fixtures.packageRoot
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var specs: [URL] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            if name.hasPrefix(".build") || name.hasPrefix(".") || name == "Invalid" || name == "node_modules" {
                walker.skipDescendants()
                continue
            }
            guard AnnaGenerator.isSpec(name), try Fixtures.check(url).spec != nil else { continue }
            specs.append(url)
        }
        return specs.sorted { $0.path < $1.path }
    }

    /// The 1,000-event spec of the benchmarks, made by `scripts/make-large-spec.py`.
    static func largeSpec(in directory: URL, objects: Bool = false) async throws -> URL {
        let spec = directory.appending(path: "large-1000\(objects ? "-objects" : "").anna.yml")
        let script = Fixtures.packageRoot.appending(path: "scripts/make-large-spec.py").path
        let (status, output) = try await SwiftCompiler.run([script, "1000", spec.path] + (objects ? ["--objects"] : []), executable: "python3")
        guard status == 0 else { throw SwiftCompiler.Failure(description: "make-large-spec.py failed:\n\(output)") }
        return spec
    }

    static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "anna-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Generates a spec in a language into `directory` under `name`.
    @discardableResult
    static func generate(
        _ spec: URL, _ language: ClientLanguage, into directory: URL, name: String, options: ClientOptions = ClientOptions()
    ) throws -> URL {
        let source = try AnnaGenerator().generate(try Fixtures.bytes(spec), file: spec.lastPathComponent, language: language, options: options).source
        let file = directory.appending(path: name)
        try Data(source.utf8).write(to: file)
        return file
    }

    /// One compiler diagnostic: file name, line and message.
    struct Diagnostic: Hashable, CustomStringConvertible {
        var file: String
        var line: Int
        var message: String
        var description: String { "\(file):\(line): \(message)" }
    }

    /// `tsc`'s `file(line,col): error TS…` and `kotlinc`'s `file:line:col: error: …` lines.
    static func errors(in output: String) -> [Diagnostic] {
        output.split(separator: "\n").compactMap { line -> Diagnostic? in
            let text = String(line)
            if let open = text.firstIndex(of: "("), let close = text.firstIndex(of: ")"), open < close,
               text[close...].hasPrefix("): error TS") {
                let position = text[text.index(after: open)..<close].split(separator: ",")
                guard let number = position.first.flatMap({ Int($0) }) else { return nil }
                return Diagnostic(file: URL(fileURLWithPath: String(text[..<open])).lastPathComponent, line: number,
                                  message: String(text[text.index(close, offsetBy: 3)...]))
            }
            let parts = text.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
            guard parts.count == 5, parts[3] == " error", let number = Int(parts[1]) else { return nil }
            return Diagnostic(file: URL(fileURLWithPath: String(parts[0])).lastPathComponent, line: number, message: String(parts[4]))
        }
    }

    /// The lines of a corpus file marked `// expect-error`, 1-based.
    static func expectedErrorLines(_ file: URL) throws -> [Int] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { $0.element.contains("// expect-error") }.map { $0.offset + 1 }
    }

    /// The compile-fail corpus of a language: `Fixtures/ClientCompileFail/*.ts` or `*.kt`.
    static func corpus(_ fileExtension: String) -> [URL] {
        let folder = Fixtures.directory.appending(path: "ClientCompileFail")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix("." + fileExtension) }.sorted().map { folder.appending(path: $0) }
    }
}

extension ClientCompilers {
    /// The documents whose blocks marked `<!-- client: LANGUAGE -->` are compiled: the
    /// README and the DocC article on the TypeScript and Kotlin clients.
    static let documentsWithClientBlocks = ["README.md", "Sources/Anna/Anna.docc/ClientsInOtherLanguages.md"]

    /// The blocks of ``documentsWithClientBlocks`` marked `<!-- client: LANGUAGE -->`,
    /// each written into `directory` as `readme-N.EXTENSION`, to compile with the
    /// generated client of the Shop example's spec.
    static func readmeBlocks(_ language: String, fileExtension: String, into directory: URL) throws -> [URL] {
        var lines: [String] = []
        for document in documentsWithClientBlocks {
            let text = try String(contentsOf: Fixtures.packageRoot.appending(path: document), encoding: .utf8)
            lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        var files: [URL] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index] == "<!-- client: \(language) -->", index + 1 < lines.count, lines[index + 1].hasPrefix("```") else { continue }
            let body = lines[(index + 2)...].prefix { $0 != "```" }
            let file = directory.appending(path: "readme-\(files.count).\(fileExtension)")
            try Data(body.joined(separator: "\n").utf8).write(to: file)
            files.append(file)
        }
        return files
    }
}

extension ClientCompilers {
    /// What `Fixtures/ClientRun/wire.ts` and `Wire.kt` must print: each call's name and
    /// properties, and each violation, parsed, so that `5` and `5.0` are one number.
    static func expectedWire() throws -> [NSDictionary] {
        try parsedLines(String(contentsOf: Fixtures.directory.appending(path: "ClientRun/expected.jsonl"), encoding: .utf8))
    }

    /// Each non-empty line of a program's output, as JSON.
    static func parsedLines(_ output: String) throws -> [NSDictionary] {
        try output.split(separator: "\n").filter { $0.hasPrefix("{") }.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary else {
                throw SwiftCompiler.Failure(description: "not a JSON object: \(line)")
            }
            return object
        }
    }
}

extension ClientCompilers {
    /// The Shop example's spec: objects, lists of objects, optionals, dates, enums, a versioned plan.
    static let shopSpec = Fixtures.packageRoot.appending(path: "Examples/Shop/Sources/ShopAnalytics/shop.anna.yml")

    /// Generates the Shop's TypeScript in each naming, beside a copy of each program (in
    /// `directory`, or in a folder per naming when there are several), and compiles them
    /// all with one `tsc --strict --module commonjs` and `flags`.
    /// - Returns: The folder of the JavaScript, laid out as the sources are.
    static func compileShop(
        with programs: [URL], namings: [ClientNaming] = [.spec], in directory: URL, flags: [String]
    ) async throws -> URL {
        var files: [URL] = []
        for naming in namings {
            let folder = namings.count == 1 ? directory : directory.appending(path: naming.rawValue)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            files.append(try generate(shopSpec, .typescript, into: folder, name: "shop.anna.ts", options: ClientOptions(naming: naming)))
            for program in programs {
                let copy = folder.appending(path: program.lastPathComponent)
                try FileManager.default.copyItem(at: program, to: copy)
                files.append(copy)
            }
        }
        let out = directory.appending(path: "out")
        let (status, output) = try await SwiftCompiler.run(
            ["-n", "10", "tsc", "--strict", "--module", "commonjs", "--pretty", "false", "--rootDir", directory.path, "--outDir", out.path]
                + flags + files.map(\.path),
            executable: "nice")
        guard status == 0 else { throw SwiftCompiler.Failure(description: "tsc failed:\n\(output)") }
        return out
    }
}
