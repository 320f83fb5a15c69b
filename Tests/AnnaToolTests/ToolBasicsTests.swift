import Foundation
import Testing

@Suite struct ToolBasicsTests {
    @Test func lintOfAValidSpecExitsZero() throws {
        let spec = AnnaTool.packageRoot.appending(path: "Examples/Shop/Sources/ShopAnalytics/shop.anna.yml")
        let result = try AnnaTool.run(["lint", spec.path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The specs of one target share one Swift namespace: a type two of them declare
    /// is an error at the second, naming the first, not a redeclaration in generated code.
    @Test func lintOfTwoSpecsDeclaringOneTypeLocatesTheSecond() throws {
        let directory = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = { (event: String) in
            "anna: 1\ntypes:\n  Product:\n    properties:\n      sku: string\nevents:\n  \(event):\n    parameters:\n      product: Product\n"
        }
        try spec("productViewed").write(to: directory.appending(path: "a.anna.yml"), atomically: true, encoding: .utf8)
        try spec("productAdded").write(to: directory.appending(path: "b.anna.yml"), atomically: true, encoding: .utf8)
        let result = try AnnaTool.run(["lint", "a.anna.yml", "b.anna.yml"], in: directory)
        #expect(result.status == 1)
        #expect(result.stderr + result.stdout == "b.anna.yml:3:3: error: type 'Product' (Swift 'Product') is declared again; a.anna.yml:3:3 declares it first. The specs of one target share one Swift namespace, so the generated code would not compile (invalid redeclaration); declare it in one spec only, or rename one\n")
        #expect(try AnnaTool.run(["lint", "a.anna.yml"], in: directory).status == 0)
    }
}
