import Foundation
import Testing

/// `anna generate --output DIR` with specs of one base name from several folders.
@Suite struct GenerateOutputTests {
    @Test func specsWithOneBaseNameDoNotOverwriteEachOther() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for (folder, event) in [("A", "checkoutStarted"), ("B", "searchRun"), ("C", "cartOpened")] {
            try FileManager.default.createDirectory(at: root.appending(path: folder), withIntermediateDirectories: true)
            try "anna: 1\nnamespace: \(folder)\nevents:\n  \(event): {}\n"
                .write(to: root.appending(path: "\(folder)/x.anna.yml"), atomically: true, encoding: .utf8)
        }
        try "anna: 1\nevents:\n  other: {}\n".write(to: root.appending(path: "C/y.anna.yml"), atomically: true, encoding: .utf8)
        let result = try AnnaTool.run(["generate", "A/x.anna.yml", "B/x.anna.yml", "C/y.anna.yml", "--output", "Generated"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "Generated").path).sorted()
        #expect(files == ["A_x.anna.swift", "B_x.anna.swift", "y.anna.swift"])
        let a = try String(contentsOf: root.appending(path: "Generated/A_x.anna.swift"), encoding: .utf8)
        let b = try String(contentsOf: root.appending(path: "Generated/B_x.anna.swift"), encoding: .utf8)
        #expect(a.contains("checkoutStarted") && !a.contains("searchRun"))
        #expect(b.contains("searchRun") && !b.contains("checkoutStarted"))
    }

    /// The common forms, which `anna` reads without ArgumentParser, and the others,
    /// which it reads with it, write the same file and fail the same way.
    @Test func commonAndOtherFormsOfGenerateAgree() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try "anna: 1\nevents:\n  cartOpened:\n    parameters:\n      count: int\n"
            .write(to: root.appending(path: "x.anna.yml"), atomically: true, encoding: .utf8)
        let forms = [
            ["generate", "x.anna.yml", "--output", "Common"],
            ["generate", "--output=Other", "x.anna.yml"],
            ["generate", "x.anna.yml", "--output-file", "File/x.anna.swift"],
            ["generate", "--output-file=File2/x.anna.swift", "x.anna.yml"],
        ]
        for form in forms {
            let result = try AnnaTool.run(form, in: root)
            #expect(result.status == 0, "\(form): \(result.stderr)")
        }
        let common = try String(contentsOf: root.appending(path: "Common/x.anna.swift"), encoding: .utf8)
        #expect(common.contains("cartOpened"))
        for other in ["Other/x.anna.swift", "File/x.anna.swift", "File2/x.anna.swift"] {
            #expect(try String(contentsOf: root.appending(path: other), encoding: .utf8) == common, "\(other)")
        }

        let missing = try AnnaTool.run(["generate", "x.anna.yml"], in: root)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("Give either --output DIR or --output-file FILE."))
        let unreadable = try AnnaTool.run(["generate", "absent.anna.yml", "--output", "Common"], in: root)
        #expect(unreadable.status == 1)
        #expect(unreadable.stderr.contains("absent.anna.yml:1:1: error: cannot read the file"))
    }

    /// `anna generate --check`, for generated code kept in the repository: exit 0 when
    /// every file is what its spec generates, 1 with the file's name when one is
    /// missing or out of date; it writes nothing either way.
    @Test func checkFailsOnAMissingOrStaleFileAndWritesNothing() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let spec = root.appending(path: "x.anna.yml")
        try "anna: 1\nevents:\n  cartOpened: {}\n".write(to: spec, atomically: true, encoding: .utf8)
        let check = ["generate", "x.anna.yml", "--output", "Generated", "--check"]

        let missing = try AnnaTool.run(check, in: root)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Generated/x.anna.swift:1:1: error: generated code is out of date with x.anna.yml"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: "Generated").path))

        #expect(try AnnaTool.run(["generate", "x.anna.yml", "--output", "Generated"], in: root).status == 0)
        let written = root.appending(path: "Generated/x.anna.swift")
        let before = try String(contentsOf: written, encoding: .utf8)
        let current = try AnnaTool.run(check, in: root)
        #expect(current.status == 0, "\(current.stderr)")
        #expect(current.stderr.isEmpty)

        try "anna: 1\nevents:\n  cartOpened: {}\n  cartClosed: {}\n".write(to: spec, atomically: true, encoding: .utf8)
        let stale = try AnnaTool.run(check, in: root)
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("error: generated code is out of date with x.anna.yml; run the same `anna generate` without --check"))
        #expect(try String(contentsOf: written, encoding: .utf8) == before)

        let invalid = try AnnaTool.run(["generate", "absent.anna.yml", "--output", "Generated", "--check"], in: root)
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("absent.anna.yml:1:1: error: cannot read the file"))
    }

    /// What the common forms leave to ArgumentParser reads as the whole tool's: help
    /// and usage name `anna generate`, and an unknown option is the tree's error.
    @Test func generatesHelpAndUsageAreTheWholeTools() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try "anna: 1\nevents:\n  opened: {}\n".write(to: root.appending(path: "x.anna.yml"), atomically: true, encoding: .utf8)

        let help = try AnnaTool.run(["generate", "--help"], in: root)
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: anna generate <specs> ..."), "\(help.stdout)")

        let unknown = try AnnaTool.run(["generate", "x.anna.yml", "--output", "G", "--outptu", "H"], in: root)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("Unknown option '--outptu'"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("Usage: anna generate"), "\(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: "G").path))
    }

    @Test func versionPrintsTheToolsVersion() throws {
        let result = try AnnaTool.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }
}
