import Foundation
import Testing
@testable import _AnnaClientGenerator
@testable import _AnnaGeneratorCore

/// Generated TypeScript and Kotlin compared byte for byte with golden files: the
/// fixture specs, the specs teams copy and the Shop example (the Shop's in both namings).
/// `ANNA_RECORD_GOLDEN=1 swift test --filter ClientGoldenFileTests` re-records them;
/// review the diff. The files end in `.golden` so that nothing compiles or lints
/// them as sources (TypeScriptClientTests and KotlinClientTests compile the output).
@Suite struct ClientGoldenFileTests {
    static let specs = Fixtures.specs(in: "Valid") + Fixtures.exampleSpecs
        + [Fixtures.packageRoot.appending(path: "Examples/Shop/Sources/ShopAnalytics/shop.anna.yml")]
    static let goldenDirectory = Fixtures.directory.appending(path: "ClientGolden", directoryHint: .isDirectory)

    @Test(arguments: specs, [ClientLanguage.typescript, .kotlin])
    func generatedClientMatchesGoldenFile(_ spec: URL, _ language: ClientLanguage) throws {
        let shop = spec.lastPathComponent == "shop.anna.yml"
        for naming in shop ? ClientNaming.allCases : [.spec] {
            let options = ClientOptions(naming: naming, kotlinPackage: language == .kotlin ? "golden" : nil)
            let (source, warnings) = try AnnaGenerator().generate(
                try Fixtures.bytes(spec), file: spec.lastPathComponent, language: language, options: options)
            #expect(warnings.isEmpty)
            let name = language.outputFileName(forSwiftFile: AnnaGenerator.outputFileName(for: spec.path))
            let golden = Self.goldenDirectory.appending(path: (naming == .spec ? "" : "snake_case-") + name + ".golden")
            if ProcessInfo.processInfo.environment["ANNA_RECORD_GOLDEN"] == "1" {
                _ = try AnnaGenerator.writeIfChanged(source, to: golden.path)
                continue
            }
            let expected = try String(contentsOf: golden, encoding: .utf8)
            #expect(source == expected, "\(golden.lastPathComponent) is out of date; run ANNA_RECORD_GOLDEN=1 swift test --filter ClientGoldenFileTests and review the diff")
        }
    }
}
