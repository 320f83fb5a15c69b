import Anna
import AnnaWebContent
import Foundation
import Testing

/// The values a generated web client sends (ISO 8601 dates from `toISOString()`, enums as
/// their wire strings, objects, lists of objects, optionals left out, numbers) become
/// the events the Swift factories build, with the app's plan metadata, in the spec's
/// names and in snake_case.
@Suite struct PageValueTests {
    static let items = [
        OrderItem(itemID: "sku-1", itemName: "Dune", itemCategory: .homeAndGarden, price: 9.75, quantity: 2),
        OrderItem(itemID: "sku-2", itemName: "Jazz record", itemCategory: .music, price: 5, quantity: 1),
    ]
    static let order = """
        {"orderID":"o-1","total":19.5,"method":"apple pay","itemCount":3,"placedAt":"2026-01-01T00:00:00.123Z",\
        "items":[{"itemID":"sku-1","itemName":"Dune","itemCategory":"home and garden","price":9.75,"quantity":2},\
        {"itemID":"sku-2","itemName":"Jazz record","itemCategory":"music","price":5,"quantity":1}],"giftMessage":"for you"}
        """

    @Test func aPageEventIsTheEventTheSwiftFactoryBuilds() async {
        let harness = BridgeHarness(grantedConsent: [.necessary, .analytics, .marketing])
        #expect(harness.track("orderPlaced", Self.order) == .accepted)
        // An optional left out, or null; an int where a double is declared.
        #expect(harness.track("productAddedToCart", #"{"productID":"sku-3","quantity":1,"price":5}"#) == .accepted)
        #expect(harness.track("searchPerformed", #"{"query":"dune","resultCount":3,"category":null}"#) == .accepted)
        #expect(harness.track("promoBannerTapped", #"{"campaign":"spring","link":"https://example.com/spring?a=1"}"#) == .accepted)
        #expect(harness.track("homeViewed") == .accepted)
        let expected: [AnalyticsEvent] = [
            .orderPlaced(
                orderID: "o-1", total: 19.5, method: .applePay, itemCount: 3,
                placedAt: Date(timeIntervalSince1970: 1_767_225_600.123), items: Self.items, giftMessage: "for you"),
            .productAddedToCart(productID: "sku-3", quantity: 1, price: 5),
            .searchPerformed(query: "dune", resultCount: 3),
            .promoBannerTapped(campaign: "spring", link: URL(string: "https://example.com/spring?a=1")),
            .homeViewed,
        ]
        let delivered = await harness.delivered()
        #expect(delivered == expected)
        // The app's plan metadata: consent, PII keys, constraints and the plan version.
        #expect(delivered.map(\.metadata) == expected.map(\.metadata))
        #expect(delivered.first?.metadata.plan?.version == "2.3.0")
        #expect(harness.bridge.refusals.isEmpty)
    }

    @Test func snakeCaseNamesMapBackToTheSpecs() async {
        let harness = BridgeHarness()
        #expect(harness.track("product_added_to_cart", #"{"product_id":"sku-2","quantity":1,"price":5,"coupon":"SPRING24"}"#, naming: "snake_case") == .accepted)
        #expect(harness.track("checkout_started", #"{"item_count":3,"total":24.5,"delivery":"express"}"#, naming: "snake_case") == .accepted)
        // Snake-case names are not the spec's: refused unless the message says so.
        #expect(harness.track("checkout_started", #"{"item_count":3,"total":24.5,"delivery":"express"}"#).refusalKind == .undeclaredEvent)
        #expect(harness.track("checkoutStarted", #"{"item_count":3,"total":24.5,"delivery":"express"}"#).refusalKind == .undeclaredProperty)
        #expect(await harness.delivered() == [
            .productAddedToCart(productID: "sku-2", quantity: 1, price: 5, coupon: "SPRING24"),
            .checkoutStarted(itemCount: 3, total: 24.5, delivery: .express),
        ])
    }

    @Test func screensTraitsAndGlobalsAreThePlans() async {
        let harness = BridgeHarness(allowedCommands: [.identify])
        #expect(harness.post(#"{"anna":1,"type":"screen","name":"Product Detail","properties":{"productID":"sku-1"},"naming":"spec"}"#) == .accepted)
        #expect(harness.post(#"{"anna":1,"type":"screen","name":"cart","properties":{},"naming":"snake_case"}"#) == .accepted)
        #expect(harness.post(#"{"anna":1,"type":"screen","name":"Checkout","properties":{}}"#).refusalKind == .undeclaredEvent)
        #expect(harness.post(#"{"anna":1,"type":"identify","userId":"customer-42","traits":{"email":"a@example.com","loyalty_tier":"gold"},"naming":"snake_case"}"#) == .accepted)
        // The page's global properties ride along with its events, checked as setGlobal checks them.
        #expect(harness.track("homeViewed", #"{"theme":"dark","experiment":"b"}"#) == .accepted)
        #expect(harness.track("homeViewed", #"{"theme":"sepia"}"#).refusalKind == .invalidValue)
        #expect(harness.track("homeViewed", #"{"experiment":"\#(String(repeating: "x", count: 41))"}"#).refusalKind == .constraintViolated)
        await harness.service.flush()
        #expect(harness.recorder.screens == [.productDetail(productID: "sku-1"), .cart])
        #expect(harness.recorder.events == [AnalyticsEvent(
            name: "homeViewed", parameters: ["theme": "dark", "experiment": "b"], metadata: AnalyticsEvent.homeViewed.metadata)])
        let identity = await harness.service.identity
        #expect(identity.userID == "customer-42")
        #expect(identity.traits == ["email": "a@example.com", "loyaltyTier": "gold"])
        // The traits keep their PII marks: email is PII, loyaltyTier is not.
        let identify = harness.recorder.calls(.identify).last
        #expect(identify?.event.metadata.piiKeys.contains("email") == true)
        #expect(identify?.event.metadata.piiKeys.contains("loyaltyTier") == false)
    }

    @Test func snakeCaseReachesIntoObjects() async {
        let harness = BridgeHarness()
        let snake = Self.order
            .replacingOccurrences(of: "orderID", with: "order_id").replacingOccurrences(of: "itemCount", with: "item_count")
            .replacingOccurrences(of: "placedAt", with: "placed_at").replacingOccurrences(of: "giftMessage", with: "gift_message")
            .replacingOccurrences(of: "itemID", with: "item_id").replacingOccurrences(of: "itemName", with: "item_name")
            .replacingOccurrences(of: "itemCategory", with: "item_category")
        #expect(harness.track("order_placed", snake, naming: "snake_case") == .accepted)
        #expect(await harness.delivered() == [.orderPlaced(
            orderID: "o-1", total: 19.5, method: .applePay, itemCount: 3,
            placedAt: Date(timeIntervalSince1970: 1_767_225_600.123), items: Self.items, giftMessage: "for you")])
    }

    @Test func datesAreJavaScriptsISOStringsOnly() {
        let harness = BridgeHarness()
        for placedAt in ["2026-01-01", "1767225600123", "2026-13-01T00:00:00.000Z", "2026-02-30T00:00:00.000Z", "2026-01-01T00:00:00.000+01:00"] {
            let order = Self.order.replacingOccurrences(of: "2026-01-01T00:00:00.123Z", with: placedAt)
            #expect(harness.track("orderPlaced", order).refusalKind == .invalidValue, "\(placedAt)")
        }
        let withoutMilliseconds = Self.order.replacingOccurrences(of: "2026-01-01T00:00:00.123Z", with: "2028-02-29T23:59:59Z")
        #expect(harness.track("orderPlaced", withoutMilliseconds) == .accepted)
    }

    @Test func thePagesPlanVersionDoesNotMatterItsNameDoes() async {
        let harness = BridgeHarness()
        let older = #"{"anna":1,"type":"track","event":"homeViewed","naming":"spec","context":{"plan":{"name":"Shop","version":"1.0.0","eventVersion":"1.0.0","branch":"web"}}}"#
        #expect(harness.post(older) == .accepted)
        #expect(harness.post(older.replacingOccurrences(of: #""branch":"web""#, with: #""branch":"web","extra":"1""#)).refusalKind == .malformed)
        // The event carries the app's plan, not the page's.
        #expect(await harness.delivered().map(\.metadata.plan?.version) == ["2.3.0"])
    }
}

/// The bridge's own JSON reader, through the messages it reads: RFC 8259, strictly.
@Suite struct MessageReadingTests {
    @Test func escapesAndUnicodeAreRead() async {
        let harness = BridgeHarness()
        // A quote, a backslash, a tab, an escaped é, a 😀 as a surrogate pair and one written as it is.
        let id = #"a\"b\\c\td\u00e9\ud83d\ude00😀 ü"#
        #expect(harness.track("productViewed", #"{"productID":"\#(id)","category":"books","price":1.5e1}"#) == .accepted)
        #expect(await harness.delivered() == [.productViewed(productID: "a\"b\\c\td\u{e9}😀😀 ü", category: .books, price: 15)])
    }

    @Test func anythingButStrictJSONIsMalformed() {
        let harness = BridgeHarness()
        let malformed = [
            #"{"anna":1,"type":"track","event":"homeViewed",}"#,
            #"{"anna":1,"type":"track","event":"homeViewed","event":"appOpened"}"#,  // a duplicate key
            #"{"anna":1,"type":"track","event":"homeViewed"} x"#,
            #"{"anna":01,"type":"track","event":"homeViewed"}"#,
            #"{"anna":1,"type":"track","event":"home\ud83dViewed"}"#,  // a lone surrogate
            #"{"anna":1,"type":"track","event":"home"# + "\u{01}" + #"Viewed"}"#,  // a raw control character
            // 70 levels: without the bound this would be an undeclared property.
            #"{"anna":1,"type":"track","event":"homeViewed","properties":{"x":"# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}}",
            #"{'anna':1}"#, "",
        ]
        for text in malformed {
            #expect(harness.post(text).refusalKind == .malformed, "\(text.prefix(80))")
        }
        // Whole numbers stay ints; 1e2 and 3.0 are doubles, which an int parameter refuses.
        #expect(harness.track("reviewSubmitted", #"{"productID":"p","rating":1e0,"hasPhoto":true}"#).refusalKind == .invalidValue)
        #expect(harness.track("reviewSubmitted", #"{"productID":"p","rating":3,"hasPhoto":true}"#) == .accepted)
    }
}
