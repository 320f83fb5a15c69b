import AnnaDestinations
import Foundation
import ShopAnalytics

// `--wire-calls <url> [--snake-case] [--bridge-messages FILE]`: only the calls
// scripts/check-one-wire.py compares with the TypeScript and Kotlin clients' (WireCalls.swift),
// after a web page's messages for the same calls through the web-content bridge, then exit.
if let flag = CommandLine.arguments.firstIndex(of: "--wire-calls") {
    let arguments = CommandLine.arguments
    let messages = arguments.firstIndex(of: "--bridge-messages").map { $0 + 1 < arguments.count ? arguments[$0 + 1] : "" }
    guard flag + 1 < arguments.count, let endpoint = URL(string: arguments[flag + 1]), messages != "" else {
        print("usage: Shop --wire-calls <http://127.0.0.1:PORT/v1/batch> [--snake-case] [--bridge-messages FILE]")
        exit(64)
    }
    exit(await sendWireCalls(
        to: endpoint, snakeCase: arguments.contains("--snake-case"), bridgeMessages: messages.map { URL(fileURLWithPath: $0) }))
}

// A shopping session, reported through the factories generated from shop.anna.yml.
// Every call is type-checked: a misspelt event, a missing parameter or a wrong
// enum case does not compile.
let session: [AnalyticsEvent] = [
    .appOpened,
    .homeViewed,
    .searchPerformed(query: "swift book", resultCount: 12, category: .books),
    .productViewed(productID: "SKU-1001", category: .books, price: 39.90),
    .productAddedToCart(productID: "SKU-1001", quantity: 1, price: 39.90, coupon: "SPRING24"),
    .productAddedToCart(productID: "SKU-2002", quantity: 2, price: 12.50),
    .productRemovedFromCart(productID: "SKU-2002", quantity: 1),
    .wishlistUpdated(productID: "SKU-4004", itemCount: 2),
    .cartViewed(itemCount: 2, total: 52.40),
    .checkoutStarted(itemCount: 2, total: 52.40, delivery: .express),
    .paymentInfoEntered(method: .applePay),
    .orderPlaced(
        orderID: "3F2A-19C7", total: 52.40, method: .applePay,
        itemCount: 2, placedAt: Date(timeIntervalSince1970: 1_767_225_600),
        items: [
            OrderItem(itemID: "SKU-1001", itemName: "Swift book", itemCategory: .books, price: 39.90, quantity: 1),
            OrderItem(itemID: "SKU-2002", itemName: "Jazz record", itemCategory: .music, price: 12.50, quantity: 1),
        ]
    ),
    .reviewSubmitted(productID: "SKU-1001", rating: 5, hasPhoto: false),
    .promoBannerTapped(campaign: "spring-sale", link: URL(string: "https://shop.example/spring")),
    .signedIn(method: .apple),
]

print("Shop reported \(session.count) typed events:")
for event in session {
    var line = "  \(event)"
    if event.metadata.consent != .analytics { line += "  [consent: \(event.metadata.consent)]" }
    if !event.metadata.piiKeys.isEmpty { line += "  [pii: \(event.metadata.piiKeys.sorted().joined(separator: ", "))]" }
    print(line)
}
print("Payment methods the spec declares: \(PaymentMethod.allCases.map(\.rawValue).joined(separator: ", "))")

// The same session through the service, to three providers: a swift-log provider,
// a Firebase-style provider (snake_case names, Firebase's limits, no PII) and the
// shop's own warehouse, which may receive PII. Marketing consent is not granted,
// so the promo banner event is dropped before it leaves memory.
let firebase = ConsoleProvider(name: "firebase", options: ProviderOptions(mapper: SnakeCaseEventMapper(), profile: .firebase))
let warehouse = ConsoleProvider(name: "warehouse", options: ProviderOptions(receivesPII: true))
let analytics = AnalyticsService(providers: [LogProvider(), firebase, warehouse])
for event in session { analytics.report(event) }
await analytics.flush()

for provider in [firebase, warehouse] {
    let received = await provider.received
    print("\n\(provider.name) received \(received.count) events:")
    for envelope in received { print("  \(envelope.event)") }
}
let metrics = analytics.metrics
print("""

    reported \(metrics.reported), forwarded \(metrics.forwarded), \
    dropped for consent \(metrics.dropped[.consent, default: 0]), constraint violations \(metrics.violations)
    """)

// A browsing session whose events come from the spec's focus-path tasks.
await runBrowsingFlow(analytics: analytics)
await analytics.shutdown()

// An app's launch as it ships: identity, consent and persisted globals kept in a
// storage directory, the lifecycle followed, and every call delivered durably to a
// collector of the Segment HTTP Tracking API, here one on 127.0.0.1 in this process,
// and beside it to PostHog's capture API (AnnaDestinations, no PostHog SDK), here a
// "self-hosted" PostHog on 127.0.0.1 in this process too, so the example needs no network.
await runAppLaunch()

// `--collector <url>`: the same session, durably, to a collector of the Segment HTTP
// Tracking API, e.g. the test collector: `python3 Tests/AnnaDeliveryTests/collector.py 8080`
// and `swift run --package-path Examples/Shop Shop --collector http://127.0.0.1:8080/v1/batch`.
if let flag = CommandLine.arguments.firstIndex(of: "--collector") {
    guard flag + 1 < CommandLine.arguments.count, let endpoint = URL(string: CommandLine.arguments[flag + 1]) else {
        print("usage: Shop --collector <http://127.0.0.1:PORT/v1/batch>")
        exit(64)
    }
    await sendToCollector(endpoint)
}

func runAppLaunch() async {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-app-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
        let collector = try LoopbackCollector()
        let posthogCollector = try LoopbackCollector()
        // Its own queue in its own folder: one collector down delays no other. The
        // project API key (phc_…) is public; a personal key (phx_…) would be refused.
        let posthog = try DurableProvider(
            collector: .posthog(
                projectAPIKey: "phc_shop_demo_project_key",
                host: .selfHosted(URL(string: "http://127.0.0.1:\(posthogCollector.port)")!)),
            storage: .directory(folder.appendingPathComponent("posthog")),
            // The demo collector reads plain JSON; PostHog itself takes the default, gzip.
            configuration: .init(compressesRequests: false, requestTimeout: .seconds(5)))
        let http = try DurableProvider(
            endpoint: collector.endpoint, writeKey: "shop-write-key",
            storage: .directory(folder.appendingPathComponent("events")),
            // The shop's own collector may receive PII (the email trait); without this it is removed.
            options: ProviderOptions(receivesPII: true),
            // This demo collector reads plain JSON; Segment and collector.py take the default, gzip.
            configuration: .init(compressesRequests: false, requestTimeout: .seconds(5)))
        let lifecycle = AppLifecycle()  // on iOS: AppLifecycle.platform, from AnnaApple
        let analytics = AnalyticsService(providers: [http, posthog], configuration: .init(
            context: AnalyticsContext(app: .init(name: "Shop", version: "1.0", build: "1")),
            storageDirectory: folder, lifecycle: lifecycle, tracksLifecycleEvents: true))
        analytics.setGlobal(.theme(.dark))
        analytics.setGlobal(.experiment("one-tap-checkout"))
        analytics.identify(userID: "customer-42", traits: [.email("ada@example.com"), .loyaltyTier(.gold)])
        analytics.screen(.productDetail(productID: "SKU-1001"))
        analytics.report(.productViewed(productID: "SKU-1001", category: .books, price: 39.90))
        analytics.screen(.cart)
        // The order with its products: a list of objects, sent as nested JSON.
        if let order = session.first(where: { $0.name == "orderPlaced" }) { analytics.report(order) }
        lifecycle.send(.background)  // flushes within the background window, then suspends the provider
        await analytics.flush()
        let identity = await analytics.identity
        lifecycle.send(.foreground)  // resumes the provider if it was suspended
        await analytics.shutdown()

        print("\nApp launch: anonymous id \(identity.anonymousID), user \(identity.userID ?? "none"); "
            + "the collector on 127.0.0.1:\(collector.port) received \(collector.calls.count) calls:")
        for call in collector.calls {
            let name = (call.fields["event"] ?? call.fields["name"]).map { " \($0)" } ?? ""
            let properties = (call.fields["properties"] ?? call.fields["traits"]) as? [String: Any] ?? [:]
            let keys = properties.keys.sorted().joined(separator: ", ")
            print("  \(call.type)\(name)  userId \(call.fields["userId"] ?? "-")  {\(keys)}")
        }
        print("PostHog (self-hosted stand-in on 127.0.0.1:\(posthogCollector.port)/batch/) received "
            + "\(posthogCollector.calls.count) events, PII removed:")
        for call in posthogCollector.calls {
            let properties = call.fields["properties"] as? [String: Any] ?? [:]
            var keys = properties.keys.filter { !$0.hasPrefix("$") || $0 == "$screen_name" }.sorted()
            if let set = properties["$set"] as? [String: Any] { keys.append("$set: \(set.keys.sorted().joined(separator: ", "))") }
            print("  posthog \(call.type)  distinct_id \(call.fields["distinct_id"] ?? "-")  {\(keys.joined(separator: ", "))}")
        }
    } catch {
        print("App launch failed: \(error)")
        exit(1)
    }
}

func sendToCollector(_ endpoint: URL) async {
    let storage = FileManager.default.temporaryDirectory.appendingPathComponent("shop-analytics-\(getpid())")
    let http: DurableProvider
    do {
        http = try DurableProvider(
            endpoint: endpoint, writeKey: "shop-write-key", storage: .directory(storage),
            configuration: .init(
                requestTimeout: .seconds(5),
                errorHandler: { error in print("  delivery: \(error)") }))
    } catch {
        print("\(error)")
        exit(64)
    }
    // A second provider with the same options sees the same envelopes, message ids included.
    let sent = ConsoleProvider(name: "sent", options: http.options)
    let analytics = AnalyticsService(providers: [http, sent])
    analytics.grant(.marketing)
    for event in session { analytics.report(event) }
    await analytics.flush()
    let metrics = http.metrics
    print("\nCollector \(endpoint.absoluteString): persisted \(metrics.persisted), delivered \(metrics.delivered), "
        + "retried \(metrics.retried), backlog \(metrics.backlog)")
    if metrics.delivered == metrics.persisted {
        for envelope in await sent.received {
            print("  delivered \(envelope.messageID.uuidString.lowercased())  \(envelope.event.name)")
        }
        try? FileManager.default.removeItem(at: storage)
    } else {
        print("  not delivered yet; the events stay in \(storage.path) until the collector answers")
    }
    await analytics.shutdown()
}
