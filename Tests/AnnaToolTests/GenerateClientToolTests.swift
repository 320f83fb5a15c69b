import Foundation
import Testing

/// `anna generate --language typescript|kotlin` run as a process: the same files'
/// names, the same located errors and the same `--check` as Swift.
@Suite struct GenerateClientToolTests {
    @Test func writesEachLanguageBesideTheOthersAndChecksIt() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try "anna: 1\nevents:\n  cartOpened:\n    parameters:\n      itemCount: int\n"
            .write(to: root.appending(path: "x.anna.yml"), atomically: true, encoding: .utf8)
        for language in ["swift", "typescript", "kotlin"] {
            let result = try AnnaTool.run(["generate", "--language", language, "--naming", language == "swift" ? "spec" : "snake_case", "x.anna.yml", "--output", "Out"], in: root)
            #expect(result.status == 0, "\(language): \(result.stderr)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "Out").path).sorted()
        #expect(files == ["x.anna.kt", "x.anna.swift", "x.anna.ts"])
        let typescript = try String(contentsOf: root.appending(path: "Out/x.anna.ts"), encoding: .utf8)
        #expect(typescript.contains("cartOpened(properties: { readonly itemCount: number }): void"))
        #expect(typescript.contains(#"payload["item_count"] = properties.itemCount;"#) && typescript.contains(#""cart_opened""#))
        let check = try AnnaTool.run(["generate", "--language", "kotlin", "--naming", "snake_case", "x.anna.yml", "--output", "Out", "--check"], in: root)
        #expect(check.status == 0, "\(check.stderr)")
        let stale = try AnnaTool.run(["generate", "--language", "kotlin", "x.anna.yml", "--output", "Out", "--check"], in: root)
        #expect(stale.status == 1 && stale.stderr.contains("x.anna.kt:1:1: error: generated code is out of date with x.anna.yml"), "\(stale.stderr)")
    }

    @Test func errorsAreLocatedInTheSpecForEveryLanguage() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try "anna: 1\nevents:\n  cartOpened:\n    parameters:\n      itemCount: strng\n"
            .write(to: root.appending(path: "bad.anna.yml"), atomically: true, encoding: .utf8)
        for language in ["swift", "typescript", "kotlin"] {
            let result = try AnnaTool.run(["generate", "--language", language, "bad.anna.yml", "--output", "Out"], in: root)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("bad.anna.yml:5:18: error: unknown type 'strng'"), "\(language): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: "Out/bad.anna.ts").path))
        let unknown = try AnnaTool.run(["generate", "--language", "java", "bad.anna.yml", "--output", "Out"], in: root)
        #expect(unknown.status != 0 && unknown.stderr.contains("--language must be swift, typescript or kotlin, not 'java'"), "\(unknown.stderr)")
        let package = try AnnaTool.run(["generate", "--language", "kotlin", "--kotlin-package", "com.1x", "bad.anna.yml", "--output", "Out"], in: root)
        #expect(package.status != 0 && package.stderr.contains("--kotlin-package must be dot-separated identifiers"), "\(package.stderr)")
    }
}
