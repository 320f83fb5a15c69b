@_spi(Generated) @testable import Anna
import AnnaTesting
import Foundation
import Testing

/// Objects and lists of objects through the service: PII and constraints inside
/// them, mappers renaming their keys, and the provider profiles' object rules.
@Suite struct ObjectValueTests {
    /// An order with three products, the second with an email (PII) inside, and a
    /// shipping address object; metadata as a spec's object types generate it.
    static func order(quantity: Int = 1) -> AnalyticsEvent {
        let products: [AnalyticsValue] = (1...3).map { index in
            var fields: [String: AnalyticsValue] = [
                "productID": .string("SKU-\(index)"), "name": .string("Product \(index)"),
                "price": .double(Double(index) * 10), "quantity": .int(index == 3 ? quantity : 1),
            ]
            if index == 2 { fields["giftEmail"] = .string("jane@example.com") }
            return .object(fields)
        }
        return AnalyticsEvent(
            name: "orderCompleted",
            parameters: [
                "orderID": "o-1", "products": .array(products), "revenue": 60,
                "shipping": .object(["city": "Springfield", "streetLine": "1 Main St"]),
            ],
            metadata: .init(
                piiKeys: ["products/giftEmail", "shipping/streetLine"],
                constraints: ["products/quantity": ParameterConstraint(min: 1), "products/productID": ParameterConstraint(maxLength: 8)]
            )
        )
    }

    @Test func piiInsideObjectsIsRemovedOrHashedInEveryObjectOfAList() async throws {
        let trusted = RecordingProvider(name: "trusted")
        let stripped = RecordingProvider(name: "stripped", options: ProviderOptions())
        let hashed = RecordingProvider(name: "hashed", options: ProviderOptions(piiHandling: .hash(salt: "pepper")))
        let analytics = AnalyticsService(providers: [trusted, stripped, hashed], configuration: .test())
        analytics.report(Self.order())
        await analytics.flush()
        #expect(trusted.events == [Self.order()])
        let event = try #require(stripped.events.first)
        guard case .array(let products) = event.parameters["products"], case .object(let second) = products[1] else {
            Issue.record("products is not a list of objects")
            return
        }
        #expect(second["giftEmail"] == nil)
        #expect(second["productID"] == "SKU-2")
        #expect(event.parameters["shipping"] == .object(["city": "Springfield"]))
        guard case .array(let hashedProducts) = hashed.events.first?.parameters["products"], case .object(let hashedSecond) = hashedProducts[1] else {
            Issue.record("products is not a list of objects")
            return
        }
        #expect(hashedSecond["giftEmail"] == .string(SHA256Vectors.hex("pepperjane@example.com")))
    }

    @Test func constraintsInsideObjectsAreCheckedInEveryObjectOfAList() async {
        let errors = ErrorLog()
        let analytics = AnalyticsService(providers: [], configuration: .test(violationPolicy: .drop, errorHandler: errors.handler))
        analytics.report(Self.order(quantity: 0))
        analytics.report(Self.order())
        await analytics.flush()
        #expect(errors.errors.map(\.description) == ["event 'orderCompleted' parameter 'products/quantity': must be at least 1 (policy: drop)"])
        #expect(analytics.metrics.violations == 1)
    }

    @Test func mappersRenameKeysInsideObjects() async throws {
        let snake = RecordingProvider(name: "snake", options: ProviderOptions(mapper: SnakeCaseEventMapper(), receivesPII: true))
        let analytics = AnalyticsService(providers: [snake], configuration: .test())
        analytics.report(Self.order())
        await analytics.flush()
        let event = try #require(snake.events.first)
        #expect(event.name == "order_completed")
        #expect(event.parameters["shipping"] == .object(["city": "Springfield", "street_line": "1 Main St"]))
        guard case .array(let products) = event.parameters["products"], case .object(let first) = products[0] else {
            Issue.record("products is not a list of objects")
            return
        }
        #expect(Set(first.keys) == ["product_id", "name", "price", "quantity"])
    }

    @Test func firebaseTakesGA4ItemsAndFlattensOrDropsOtherObjectsWithAReport() async throws {
        let errors = ErrorLog()
        let firebase = RecordingProvider(name: "firebase", options: ProviderOptions(mapper: SnakeCaseEventMapper(), profile: .firebase))
        let analytics = AnalyticsService(providers: [firebase], configuration: .test(errorHandler: errors.handler))
        var items: [AnalyticsValue] = []
        for index in 0..<205 {
            var fields: [String: AnalyticsValue] = ["itemID": .string("SKU-\(index)"), "price": 1, "brand": .object(["name": "Acme"])]
            for custom in 0..<30 { fields["extra\(custom)"] = .int(custom) }
            items.append(.object(fields))
        }
        analytics.report(AnalyticsEvent(name: "purchase", parameters: [
            "items": .array(items), "products": .array([.object(["id": "x"])]),
            "shipping": .object(["city": "Springfield", "geo": .object(["zip": "12345"])]),
        ]))
        await analytics.flush()
        let event = try #require(firebase.events.first)
        #expect(event.parameters["products"] == nil)
        #expect(event.parameters["shipping"] == nil)
        #expect(event.parameters["shipping_city"] == "Springfield")
        #expect(event.parameters["shipping_geo_zip"] == "12345")
        guard case .array(let sent) = event.parameters["items"], case .object(let item) = sent[0] else {
            Issue.record("items is not a list of objects")
            return
        }
        #expect(sent.count == 200)
        #expect(item["brand"] == nil)
        #expect(item["item_id"] == "SKU-0" && item["price"] == 1)
        #expect(item.count == 2 + 27, "GA4's item parameters and 27 custom ones")
        let lines = Set(errors.errors.map(\.description))
        #expect(lines.contains("provider 'firebase': firebase: event 'purchase' parameter 'items': at most 200 objects a list (truncatedList)"))
        #expect(lines.contains("provider 'firebase': firebase: event 'purchase' parameter 'items/brand': flat objects in a list (droppedParameter)"))
        #expect(lines.contains("provider 'firebase': firebase: event 'purchase' parameter 'products': lists of objects only as items (droppedParameter)"))
        #expect(lines.contains("provider 'firebase': firebase: event 'purchase' parameter 'shipping': no object values; its fields are sent as parameters named 'shipping_…' (flattenedObject)"))
        #expect(lines.filter { $0.contains("custom parameters an item") }.count == 3, "one report per dropped key, not per item")
    }

    @Test func firebaseReportsAFlattenedFieldThatCollidesWithAnotherParameter() async throws {
        let errors = ErrorLog()
        let firebase = RecordingProvider(name: "firebase", options: ProviderOptions(mapper: SnakeCaseEventMapper(), profile: .firebase))
        let analytics = AnalyticsService(providers: [firebase], configuration: .test(errorHandler: errors.handler))
        analytics.report(AnalyticsEvent(name: "checkout", parameters: [
            "shippingMethod": "express", "shipping": .object(["method": "ground", "city": "Springfield"]),
            // Two objects whose fields flatten to one name: `a_b_c` from both.
            "a": .object(["bC": 1]), "aB": .object(["c": 2]),
        ]))
        await analytics.flush()
        let event = try #require(firebase.events.first)
        #expect(event.parameters["shipping_method"] == "express", "the event's own parameter wins")
        #expect(event.parameters["shipping_city"] == "Springfield")
        #expect(event.parameters["a_b_c"] == 1, "the first object by name wins")
        let lines = Set(errors.errors.map(\.description))
        #expect(lines.contains("provider 'firebase': firebase: event 'checkout' parameter 'shipping/method': flattened to 'shipping_method', the name of parameter 'shipping_method', which is sent instead; rename one (droppedParameter)"))
        #expect(lines.contains("provider 'firebase': firebase: event 'checkout' parameter 'a_b/c': flattened to 'a_b_c', the name of 'a/b_c' flattened, which is sent instead; rename one (droppedParameter)"))
    }

    @Test func mixpanelDropsObjectsNestedDeeperThanItTakes() async throws {
        let errors = ErrorLog()
        let mixpanel = RecordingProvider(name: "mixpanel", options: ProviderOptions(profile: .mixpanel))
        let analytics = AnalyticsService(providers: [mixpanel], configuration: .test(errorHandler: errors.handler))
        let deep = AnalyticsValue.object(["a": .object(["b": .object(["c": .object(["d": 1])]), "keep": 2])])
        analytics.report(AnalyticsEvent(name: "nested", parameters: ["deep": deep]))
        await analytics.flush()
        #expect(mixpanel.events.first?.parameters["deep"] == .object(["a": .object(["b": .object([:]), "keep": 2])]))
        #expect(errors.errors.map(\.description) == ["provider 'mixpanel': mixpanel: event 'nested' parameter 'deep/a/b/c': objects nested at most 3 levels deep (droppedParameter)"])
    }

    @Test func estimatedSizeCountsObjects() {
        let flat = AnalyticsEvent(name: "e", parameters: ["p": .array([])])
        let nested = Self.order()
        #expect(nested.approximateByteCount > flat.approximateByteCount + 3 * 4 * 64)
    }
}
