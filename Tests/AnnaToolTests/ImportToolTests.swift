import Foundation
import Testing

/// `anna import` run as a process: the spec it writes, its located warnings, its exit
/// codes, and the spec going on through `anna lint` and `anna generate`.
@Suite struct ImportToolTests {
    static let plans = AnnaTool.packageRoot.appending(path: "Tests/AnnaGeneratorTests/Fixtures/Import", directoryHint: .isDirectory)

    @Test func importedPlanLintsAndGenerates() throws {
        let folder = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appending(path: "shop.anna.yml").path
        let plan = Self.plans.appending(path: "ecommerce-public-api.json").path
        let imported = try AnnaTool.run(["import", plan, "--output", spec, "--namespace", "Shop"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "")
        #expect(imported.stderr.contains("ecommerce-public-api.json:128:56: warning: format 'email' of trait 'email' of the identify traits is not checked by Anna; the value is a plain string\n"))
        let written = try String(contentsOfFile: spec, encoding: .utf8)
        #expect(written.hasPrefix("# yaml-language-server: $schema=anna.schema.json\n"))
        #expect(written.contains("namespace: Shop\n"))
        let lint = try AnnaTool.run(["lint", spec])
        #expect(lint.status == 0 && lint.stderr == "", "\(lint.stderr)")
        let generate = try AnnaTool.run(["generate", spec, "--output", folder.path])
        #expect(generate.status == 0, "\(generate.stderr)")
        let swift = try String(contentsOf: folder.appending(path: "shop.anna.swift"), encoding: .utf8)
        #expect(swift.contains("struct OrderCompletedProduct: Sendable, Hashable, Codable"))
        #expect(swift.contains("case productId = \"product_id\""))
    }

    @Test func specGoesToStandardOutputWithoutOutput() throws {
        let result = try AnnaTool.run(["import", "typewriter8-plan.json", "--schema", "../schema/anna.schema.json"], in: Self.plans)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("# yaml-language-server: $schema=../schema/anna.schema.json\n# Imported by anna import from typewriter8-plan.json (Segment tracking plan \"Flat Plan\")\n"))
    }

    @Test func strictFailsWhenSomethingDidNotMap() throws {
        let lossy = try AnnaTool.run(["import", "lossy.json", "--strict"], in: Self.plans)
        #expect(lossy.status == 1)
        #expect(lossy.stdout.contains("  Payment Failed:\n"))
        #expect(lossy.stderr.split(separator: "\n").count == 14)
        #expect(lossy.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("lossy.json:") && $0.contains(": warning: ") })
        // Notes (a converted screen name, an older version) lose nothing: --strict passes.
        let clean = try AnnaTool.run(["import", "typewriter8-plan.json", "--strict"], in: Self.plans)
        #expect(clean.status == 0)
    }

    @Test func badInputExitsTwo() throws {
        let malformed = try AnnaTool.run(["import", "malformed.json"], in: Self.plans)
        #expect(malformed.status == 2)
        #expect(malformed.stdout == "")
        #expect(malformed.stderr == "malformed.json:4:3: error: expected ',' or '}' after a member of an object (the file is not valid JSON)\n")
        let missing = try AnnaTool.run(["import", "nowhere.json"], in: Self.plans)
        #expect(missing.status == 2)
        #expect(missing.stderr == "nowhere.json:1:1: error: cannot read the file; check that it exists and is readable\n")
        let namespace = try AnnaTool.run(["import", "lossy.json", "--namespace", "1 bad"], in: Self.plans)
        #expect(namespace.status == 2)
        #expect(namespace.stderr.contains("namespace '1 bad' is not a Swift identifier"))
        let unwritable = try AnnaTool.run(["import", "lossy.json", "--output", "/nonexistent/x.anna.yml"], in: Self.plans)
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr.hasSuffix("anna import: error: cannot write /nonexistent/x.anna.yml\n"))
    }
}
