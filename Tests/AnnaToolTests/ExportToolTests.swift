import Foundation
import Testing

/// `anna export` run as a process: Segment's rules that `anna import` reads back to
/// the same plan (`anna diff` finds no change), Iglu's folder of schemas, and the
/// refusal of bad options with the flag and what to give.
@Suite struct ExportToolTests {
    static let fixtures = AnnaTool.packageRoot.appending(path: "Tests/AnnaToolTests/Fixtures/export", directoryHint: .isDirectory)
    static let shop = fixtures.appending(path: "shop.anna.yml").path

    @Test func segmentRulesImportBackWithNoChange() throws {
        let folder = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = folder.appending(path: "plan.json").path
        let exported = try AnnaTool.run(["export", Self.shop, "--format", "segment", "--output-file", plan])
        #expect(exported.status == 0 && exported.stderr == "", "\(exported.stderr)")
        let back = folder.appending(path: "back.anna.yml").path
        let imported = try AnnaTool.run(["import", plan, "--output", back, "--namespace", "Shop", "--strict"])
        #expect(imported.status == 0 && imported.stderr == "", "\(imported.stderr)")
        let diff = try AnnaTool.run(["diff", Self.shop, back])
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout == "anna diff: no changes\n", "\(diff.stdout)")
        // Standard output, byte for byte the file.
        let printed = try AnnaTool.run(["export", Self.shop, "--format", "segment"])
        #expect(printed.stdout == (try String(contentsOfFile: plan, encoding: .utf8)))
    }

    @Test func igluWritesOneSelfDescribingSchemaPerEventVersion() throws {
        let folder = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try AnnaTool.run(["export", Self.shop, "--format", "iglu", "--vendor", "com.example.shop", "--output", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "anna export: wrote 2 files to \(folder.path)\n")
        let order = folder.appending(path: "schemas/com.example.shop/Order_Completed/jsonschema/2-0-0")
        let text = try String(contentsOf: order, encoding: .utf8)
        #expect(text.hasPrefix("{\n  \"$schema\": \"http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#\",\n  \"additionalProperties\": false,\n"))
        #expect(text.contains("\"self\": {\n    \"format\": \"jsonschema\",\n    \"name\": \"Order_Completed\",\n    \"vendor\": \"com.example.shop\",\n    \"version\": \"2-0-0\"\n  },"))
        #expect(text.contains("\"x-anna-event\": \"Order Completed\""))
        #expect(FileManager.default.fileExists(atPath: folder.appending(path: "schemas/com.example.shop/Product_Viewed/jsonschema/1-0-0").path))
    }

    @Test func badOptionsAreRefusedNamingTheFlag() throws {
        let format = try AnnaTool.run(["export", Self.shop, "--format", "protobuf"])
        #expect(format.status != 0)
        #expect(format.stderr.contains("'protobuf'") && format.stderr.contains("--format") && format.stderr.contains("'segment'") && format.stderr.contains("'iglu'"), "\(format.stderr)")
        let noVendor = try AnnaTool.run(["export", Self.shop, "--format", "iglu", "--output", "out"])
        #expect(noVendor.status == 2)
        #expect(noVendor.stderr == "anna export: error: --format iglu needs --vendor, the schemas' vendor, such as com.example\n")
        let badVendor = try AnnaTool.run(["export", Self.shop, "--format", "iglu", "--output", "out", "--vendor", "com example"])
        #expect(badVendor.status == 2)
        #expect(badVendor.stderr == "anna export: error: --vendor 'com example' cannot be an Iglu vendor; use letters, digits, '.', '-' and '_', such as com.example\n")
        let file = try AnnaTool.run(["export", Self.shop, "--format", "iglu", "--vendor", "com.example", "--output-file", "x.json"])
        #expect(file.status == 2)
        #expect(file.stderr.contains("give --output DIR instead of --output-file"))
        let missing = try AnnaTool.run(["export", "nowhere.anna.yml", "--format", "segment"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "anna export: error: cannot read nowhere.anna.yml; check that it exists and is readable\n")
    }
}
