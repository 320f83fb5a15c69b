import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// An order with three products through the whole pipeline: to the HTTP provider and
/// a real loopback collector as nested JSON, and to a Firebase-profile provider with
/// GA4's item names and PII removed inside the items.
@Suite(.serialized) struct NestedDeliveryTests {
    static let order: AnalyticsEvent = {
        let products: [AnalyticsValue] = (1...3).map { index in
            var fields: [String: AnalyticsValue] = [
                "itemID": .string("SKU-\(index)"), "itemName": .string("Product \(index)"),
                "price": .double(Double(index) * 10), "quantity": .int(index),
                "dimensions": .object(["width": .int(index), "unit": "cm"]),
            ]
            if index == 2 { fields["giftEmail"] = "jane@example.com" }
            return .object(fields)
        }
        return AnalyticsEvent(
            name: "purchase",
            parameters: ["transactionID": "T-1", "items": .array(products), "value": 140, "currency": "EUR"],
            metadata: .init(piiKeys: ["items/giftEmail"], constraints: ["items/quantity": ParameterConstraint(min: 1)]))
    }()

    @Test func anOrderReachesTheCollectorAsNestedJSON() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let http = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "test-key", storage: .memory(limit: 1 << 20), configuration: .test())
        let analytics = AnalyticsService(providers: [http])
        analytics.report(Self.order)
        await analytics.flush()
        try await http.flush()
        let accepted = try await collector.accepted()
        #expect(accepted.invalid.isEmpty && accepted.statuses == ["200": 1])
        let event = try #require((accepted.last?["batch"] as? [[String: Any]])?.first)
        #expect(event["event"] as? String == "purchase")
        let properties = try #require(event["properties"] as? [String: Any])
        let items = try #require(properties["items"] as? [[String: Any]])
        #expect(items.count == 3)
        #expect(items.map { $0["itemID"] as? String } == ["SKU-1", "SKU-2", "SKU-3"])
        #expect(items.map { $0["quantity"] as? Int } == [1, 2, 3])
        #expect(items.map { $0["price"] as? Double } == [10, 20, 30])
        #expect((items[2]["dimensions"] as? [String: Any])?["unit"] as? String == "cm")
        #expect(items[1]["giftEmail"] == nil, "the HTTP provider may not receive PII, inside objects too")
        #expect(properties["transactionID"] as? String == "T-1")
        await http.shutdown()
    }

    @Test func theSameOrderReachesAFirebaseProfileProviderWithGA4ItemNames() async throws {
        let errors = LockedState<[AnalyticsError]>([])
        let firebase = EventRecorder(options: ProviderOptions(mapper: SnakeCaseEventMapper(), profile: .firebase))
        let configuration = AnalyticsService.Configuration(errorHandler: { error in errors.withLock { $0.append(error) } })
        let analytics = AnalyticsService(providers: [firebase], configuration: configuration)
        analytics.report(Self.order)
        await analytics.flush()
        let event = try #require(firebase.events.withLock { $0 }.first)
        #expect(event.name == "purchase")
        #expect(Set(event.parameters.keys) == ["transaction_id", "items", "value", "currency"])
        guard case .array(let items) = event.parameters["items"] else {
            Issue.record("items is not a list")
            return
        }
        let fields = items.compactMap { item -> [String: AnalyticsValue]? in
            guard case .object(let fields) = item else { return nil }
            return fields
        }
        #expect(fields.count == 3)
        #expect(fields.allSatisfy { Set($0.keys) == ["item_id", "item_name", "price", "quantity"] },
                "GA4 item names; the nested dimensions dropped (Firebase items are flat), PII removed")
        #expect(fields.map { $0["item_id"] } == ["SKU-1", "SKU-2", "SKU-3"])
        let lines = errors.withLock { $0 }.map(\.description)
        #expect(lines == ["provider 'EventRecorder': firebase: event 'purchase' parameter 'items/dimensions': flat objects in a list (droppedParameter)"])
    }
}

/// Records the events a provider receives, prepared for its options.
final class EventRecorder: AnalyticsProvider {
    let options: ProviderOptions
    let events = LockedState<[AnalyticsEvent]>([])

    init(options: ProviderOptions) {
        self.options = options
    }

    func receive(_ batch: [AnalyticsEnvelope]) async throws {
        events.withLock { $0 += batch.map(\.event) }
    }
}
