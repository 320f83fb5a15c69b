@_spi(Generated) import Anna
import Foundation
import Testing

/// The specs teams copy (Examples/Specs), compiled here as generated and exercised:
/// GA4's e-commerce events through a Firebase-profile provider, Segment's through a
/// provider that takes them as they are.
@Suite struct EcommerceSpecTests {
    /// Records what a provider receives, after its mapper, profile and PII rule.
    final class Recorder: AnalyticsProvider {
        let options: ProviderOptions
        private let lock = NSLock()
        nonisolated(unsafe) private var received: [AnalyticsEvent] = []

        init(options: ProviderOptions) { self.options = options }

        func receive(_ batch: [AnalyticsEnvelope]) async throws {
            lock.withLock { received += batch.map(\.event) }
        }

        var events: [AnalyticsEvent] { lock.withLock { received } }
    }

    static let jeans = Item(itemId: "SKU_123", itemName: "jeans", itemBrand: "Google", itemCategory: "pants", price: 9.99, quantity: 2)
    static let boots = Item(itemId: "SKU_456", itemName: "boots", index: 1, price: 24.99, quantity: 1)

    @Test func ga4EventsReachAFirebaseProviderWithTheirItemsAndNoViolation() async throws {
        let errors = LockedErrors()
        let firebase = Recorder(options: ProviderOptions(mapper: SnakeCaseEventMapper(), profile: .firebase))
        let analytics = AnalyticsService(providers: [firebase], configuration: .init(violationPolicy: .send, errorHandler: errors.record))
        let cart = [Self.jeans, Self.boots]
        let events: [AnalyticsEvent] = [
            .viewItemList(items: cart, itemListId: "related", itemListName: "Related products"),
            .selectItem(items: [Self.boots], itemListId: "related"),
            .viewItem(currency: "USD", value: 24.99, items: [Self.boots]),
            .addToCart(currency: "USD", value: 44.97, items: cart),
            .removeFromCart(currency: "USD", value: 9.99, items: [Self.jeans]),
            .viewCart(currency: "USD", value: 34.98, items: cart),
            .beginCheckout(currency: "USD", value: 34.98, items: cart, coupon: "SUMMER"),
            .addShippingInfo(currency: "USD", value: 34.98, items: cart, shippingTier: "Ground"),
            .addPaymentInfo(currency: "USD", value: 34.98, items: cart, paymentType: "Credit Card"),
            .purchase(transactionId: "T_12345", currency: "USD", value: 34.98, items: cart, shipping: 3.5, tax: 1.2),
            .refund(currency: "USD", value: 9.99, transactionId: "T_12345", items: [Self.jeans]),
        ]
        for event in events { analytics.report(event) }
        await analytics.flush()
        #expect(errors.all.isEmpty, "\(errors.all)")
        let received = firebase.events
        #expect(received.map(\.name) == [
            "view_item_list", "select_item", "view_item", "add_to_cart", "remove_from_cart", "view_cart",
            "begin_checkout", "add_shipping_info", "add_payment_info", "purchase", "refund",
        ])
        let purchase = try #require(received.first { $0.name == "purchase" })
        #expect(purchase.parameters["transaction_id"] == "T_12345")
        #expect(purchase.parameters["items"] == .array([
            .object(["item_id": "SKU_123", "item_name": "jeans", "item_brand": "Google", "item_category": "pants", "price": 9.99, "quantity": 2]),
            .object(["item_id": "SKU_456", "item_name": "boots", "index": 1, "price": 24.99, "quantity": 1]),
        ]))
        #expect(EventCatalog.ga4Ecommerce.events.count == 11)
    }

    @Test func ga4ConstraintsInsideItemsAreChecked() async {
        let errors = LockedErrors()
        let analytics = AnalyticsService(providers: [], configuration: .init(violationPolicy: .drop, errorHandler: errors.record))
        analytics.report(.addToCart(currency: "usd", value: 1, items: [Item(itemId: "x", quantity: 0)]))
        await analytics.flush()
        #expect(errors.all == [
            "event 'add_to_cart' parameter 'currency': must be matching /^[A-Z]{3}$/ (policy: drop)",
            "event 'add_to_cart' parameter 'items/quantity': must be at least 1 (policy: drop)",
        ])
    }

    @Test func segmentEventsCarryProductsAsListsOfObjects() async throws {
        let segment = Recorder(options: ProviderOptions(profile: .segment, receivesPII: true))
        let analytics = AnalyticsService(providers: [segment])
        let products = [
            Product(productId: "507f1f77bcf86cd799439011", sku: "45790-32", name: "Monopoly: 3rd Edition", price: 19, quantity: 1),
            Product(productId: "505bd76785ebb509fc183733", sku: "46493-32", category: "Games", price: 3, quantity: 2),
        ]
        let events: [AnalyticsEvent] = [
            .productsSearched(query: "blue roses"),
            .productListViewed(products: products, listId: "hot_deals_1", category: "Deals"),
            .productClicked(productId: "507f1f77bcf86cd799439011", sku: "G-32", position: 3),
            .productViewed(productId: "507f1f77bcf86cd799439011", currency: "USD", value: 18.99, price: 18.99),
            .productAdded(productId: "507f1f77bcf86cd799439011", cartId: "skdjsidjsdkdj29j", quantity: 1),
            .productRemoved(productId: "507f1f77bcf86cd799439011", cartId: "skdjsidjsdkdj29j"),
            .cartViewed(products: products, cartId: "skdjsidjsdkdj29j"),
            .checkoutStarted(products: products, orderId: "50314b8e9bcf000000000000", value: 30, currency: "USD"),
            .checkoutStepViewed(step: 2, checkoutId: "50314b8e9bcf000000000000", shippingMethod: "Fedex"),
            .checkoutStepCompleted(step: 2, checkoutId: "50314b8e9bcf000000000000", paymentMethod: "Visa"),
            .paymentInfoEntered(checkoutId: "50314b8e9bcf000000000000", step: 4, paymentMethod: "Visa"),
            .orderCompleted(orderId: "50314b8e9bcf000000000000", products: products, total: 27.5, revenue: 25, currency: "USD"),
            .orderRefunded(orderId: "50314b8e9bcf000000000000", total: 30, currency: "USD"),
            .couponApplied(couponId: "may_deals_2016", orderId: "50314b8e9bcf000000000000", discount: 2.25),
        ]
        for event in events { analytics.report(event) }
        await analytics.flush()
        let received = segment.events
        #expect(received.count == 14)
        let order = try #require(received.first { $0.name == "Order Completed" })
        guard case .array(let sent) = order.parameters["products"], case .object(let first) = sent.first else {
            Issue.record("products is not a list of objects")
            return
        }
        #expect(sent.count == 2)
        #expect(first["product_id"] == "507f1f77bcf86cd799439011" && first["price"] == 19.0 && first["quantity"] == 1)
        #expect(received.first { $0.name == "Product Clicked" }?.parameters["position"] == 3)
        #expect(EventCatalog.segmentEcommerce.events.count == 14)
    }
}

/// Collects the service's errors as text.
final class LockedErrors: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var lines: [String] = []

    var record: @Sendable (AnalyticsError) -> Void {
        { error in self.lock.withLock { self.lines.append(error.description) } }
    }

    var all: [String] { lock.withLock { lines } }
}
