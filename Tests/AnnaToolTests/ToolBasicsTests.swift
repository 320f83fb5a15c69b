import Foundation
import Testing

@Suite struct ToolBasicsTests {
    @Test func lintOfAValidSpecExitsZero() throws {
        let spec = AnnaTool.packageRoot.appending(path: "Examples/Shop/Sources/ShopAnalytics/shop.anna.yml")
        let result = try AnnaTool.run(["lint", spec.path])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
