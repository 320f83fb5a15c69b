import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Segment

protocol EnergyClient: Sendable {
    func started() async
    func track(number: Int)
    func flush() async
}

/// Segment's analytics-swift with its defaults, every request sent to the loopback collector.
struct SegmentClient: EnergyClient, @unchecked Sendable {   // Analytics is thread-safe by its own design
    let analytics: Analytics

    /// Its startup (reading settings) done: `waitUntilStarted()` spins the main run loop,
    /// which would count as the SDK's work, so this waits as long instead.
    func started() async { try? await Task.sleep(for: .seconds(2)) }

    func track(number: Int) {
        analytics.track(name: "Category Added", properties: ["categoryTitle": "Groceries", "n": number])
    }

    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            analytics.flush { continuation.resume() }
        }
    }
}

func makeClient(endpoint: URL, directory: URL) -> any EnergyClient {
    let configuration = Configuration(writeKey: "test-key")
        .requestFactory { request in
            var request = request
            // The batch to the collector's path; settings and the rest to the collector too (it answers 404).
            let path = request.url?.path == "/v1/b" ? "/v1/batch" : request.url?.path ?? "/"
            request.url = URL(string: path, relativeTo: endpoint)?.absoluteURL
            // Segment's SDK sends its write key in the body; the collector checks the
            // Authorization header Segment's HTTP API also accepts (and answers 401
            // without it, which made the SDK retry every batch).
            request.setValue("Basic " + Data("test-key:".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
            return request
        }
    let analytics = Analytics(configuration: configuration)
    analytics.add(plugin: LowercaseMessageID())
    return SegmentClient(analytics: analytics)
}

/// The collector takes lowercase UUIDs as message ids (Anna's); Segment's are uppercase,
/// which its API accepts. Without this the collector answers 400 to every batch.
final class LowercaseMessageID: EventPlugin {
    let type = PluginType.enrichment
    weak var analytics: Analytics?

    func execute<T: RawEvent>(event: T?) -> T? {
        guard var event else { return nil }
        event.messageId = event.messageId?.lowercased()
        return event
    }
}
