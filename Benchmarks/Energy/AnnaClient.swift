import Anna
import Foundation

protocol EnergyClient: Sendable {
    func started() async
    func track(number: Int)
    func flush() async
}

/// Anna with its HTTP provider on the loopback collector, as an app configures it.
struct AnnaClient: EnergyClient {
    let analytics: AnalyticsService

    func started() async { await analytics.flush() }

    func track(number: Int) {
        analytics.report(AnalyticsEvent(name: "Category Added", parameters: ["categoryTitle": "Groceries", "n": .int(number)]))
    }

    func flush() async { await analytics.flush() }
}

func makeClient(endpoint: URL, directory: URL) -> any EnergyClient {
    let http = try! HTTPBatchProvider(endpoint: endpoint, writeKey: "test-key", storage: .directory(directory))
    return AnnaClient(analytics: AnalyticsService(
        providers: [http], configuration: .init(storageDirectory: directory, lifecycle: nil)))
}
