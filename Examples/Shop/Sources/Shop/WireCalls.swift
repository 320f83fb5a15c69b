import Anna
import AnnaWebContent
import Foundation
import ShopAnalytics

/// `--wire-calls <url>`: the calls that scripts/one-wire's TypeScript and Kotlin programs
/// make through their generated clients, made here through the generated Swift factories
/// and a `DurableProvider`, for `scripts/check-one-wire.py` to compare what the three
/// send to `anna inspect`. Keep the three lists the same, call for call.
/// - Parameters:
///   - endpoint: The collector's batch endpoint.
///   - snakeCase: Whether the provider maps names with `SnakeCaseEventMapper`, as the
///     TypeScript and Kotlin generated with `--naming snake_case` send them.
///   - bridgeMessages: `--bridge-messages FILE`: the messages the generated TypeScript's
///     web-view client posted for the same calls, one a line, fed first to a
///     `WebContentBridge` of the same service: a page in the app's web view, then the app.
/// - Returns: The exit status: 0 once every call was delivered and no message refused.
func sendWireCalls(to endpoint: URL, snakeCase: Bool, bridgeMessages: URL? = nil) async -> Int32 {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-wire-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let http: DurableProvider
    do {
        http = try DurableProvider(
            endpoint: endpoint, writeKey: "shop-write-key", storage: .directory(folder.appendingPathComponent("events")),
            options: snakeCase ? ProviderOptions(mapper: SnakeCaseEventMapper()) : ProviderOptions(),
            configuration: .init(requestTimeout: .seconds(5), errorHandler: { error in print("delivery: \(error)") }))
    } catch {
        print("\(error)")
        return 64
    }
    // The plan's branch, sent in every event's context.plan, as the Node and JVM sides set it.
    var context = AnalyticsContext.current()
    context.planBranch = "main"
    // A fresh folder: no identity or persisted global from an earlier run.
    let analytics = AnalyticsService(
        providers: [http], configuration: .init(context: context, anonymousID: "swift-wire", storageDirectory: folder))
    analytics.grant(.marketing)  // promoBannerTapped's consent category
    var refused = 0
    if let bridgeMessages {
        // First, so that the app's global properties, set below, are not yet set: a page's
        // own globals ride in its events' properties.
        guard let text = try? String(contentsOf: bridgeMessages, encoding: .utf8) else {
            print("cannot read \(bridgeMessages.path)")
            return 66
        }
        let page = WebContentOrigin(scheme: "https", host: "shop.example.com")
        let bridge = WebContentBridge(
            service: analytics, catalog: .shop, configuration: .init(allowedOrigins: [page], allowedCommands: [.identify]))
        let channel = bridge.makeChannel()
        for line in text.split(separator: "\n") where !line.isEmpty {
            if case .refused(let refusal) = channel.receive(String(line), from: page) {
                print("bridge: \(refusal)")
                refused += 1
            }
        }
    }
    analytics.report(.orderPlaced(
        orderID: "o-1", total: 19.5, method: .applePay, itemCount: 3,
        placedAt: Date(timeIntervalSince1970: 1_767_225_600.123),
        items: [
            OrderItem(itemID: "sku-1", itemName: "Dune", itemCategory: .homeAndGarden, price: 9.75, quantity: 2),
            OrderItem(itemID: "sku-2", itemName: "Jazz record", itemCategory: .music, price: 5, quantity: 1),
        ],
        giftMessage: "for you"))
    analytics.report(.productAddedToCart(productID: "sku-2", quantity: 1, price: 5, coupon: "SPRING24"))
    analytics.report(.productAddedToCart(productID: "sku-3", quantity: 1, price: 5))
    analytics.report(.searchPerformed(query: "dune", resultCount: 3, category: .books))
    analytics.report(.checkoutStarted(itemCount: 3, total: 24.5, delivery: .express))
    analytics.report(.reviewSubmitted(productID: "sku-1", rating: 5, hasPhoto: false))
    analytics.report(.promoBannerTapped(campaign: "spring", link: URL(string: "https://example.com/spring?a=1")))
    analytics.screen(.productDetail(productID: "sku-1"))
    analytics.identify(userID: "customer-42", traits: [.email("a@example.com"), .loyaltyTier(.gold)])
    analytics.setGlobal(.theme(.dark))
    analytics.setGlobal(.experiment("b"))
    analytics.report(.homeViewed)
    analytics.screen(.cart)
    analytics.removeGlobal(.experiment)
    analytics.report(.appOpened)
    await analytics.flush()
    let metrics = http.metrics
    await analytics.shutdown()
    print("wire calls to \(endpoint.absoluteString): persisted \(metrics.persisted), delivered \(metrics.delivered), refused \(refused)")
    return metrics.persisted > 0 && metrics.delivered == metrics.persisted && refused == 0 ? 0 : 1
}
