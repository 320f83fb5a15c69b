@_spi(Generated) import Anna
import AnnaWebContent
import Benchmark
import Foundation

// Issue 55: what a page's call costs the app's caller thread. A message through the
// web-content bridge (origin, size and rate checks, the JSON decoded, the event built
// through the catalog and its constraints checked, then `report`) against a direct
// `report` of the same event, into the same service.

/// `productAddedToCart` of the Shop example's plan, as its generated catalog describes it.
let webContentCatalog: EventCatalog = {
    let types = CatalogTypes()
    let metadata = AnalyticsEvent.Metadata(constraints: [
        "productID": ParameterConstraint(maxLength: 64), "quantity": ParameterConstraint(min: 1, max: 99),
        "price": ParameterConstraint(min: 0), "coupon": ParameterConstraint(maxLength: 20, pattern: "^[A-Z0-9]+$"),
    ])
    let event = types.event(
        "productAddedToCart", parameters: ["productID", "String", "quantity", "Int", "price", "Double", "coupon", "String?"],
        metadata: metadata)
    return EventCatalog(name: "Shop", fingerprint: "0000000000000055", events: [event])
}()

/// The message the generated web-view client posts for that call.
let webContentMessage = #"{"anna":1,"type":"track","event":"productAddedToCart","properties":{"productID":"sku-2","quantity":1,"price":5,"coupon":"SPRING24"},"naming":"spec","context":{"plan":{"name":"Shop","version":"2.3.0","eventVersion":"1.0.0","branch":"main"}}}"#

/// The same event as its typed factory builds it.
let webContentEvent = try! webContentCatalog.event(named: "productAddedToCart", values: [
    "productID": "sku-2", "quantity": 1, "price": 5.0, "coupon": "SPRING24",
])

func webContentBenchmarks() {
    let analytics = AnalyticsService(providers: threeProviders(), configuration: unbounded())
    let page = WebContentOrigin(scheme: "https", host: "checkout.example.com")
    // No rate bound: the benchmark measures the path of an accepted message.
    let bridge = WebContentBridge(
        service: analytics, catalog: webContentCatalog,
        configuration: .init(allowedOrigins: [page], rate: WebContentRate(messagesPerSecond: 1e15, burst: .max / 2)))
    let channel = bridge.makeChannel()
    precondition(channel.receive(webContentMessage, from: page) == .accepted)

    Benchmark("Web content: direct report of productAddedToCart, caller's thread") { benchmark in
        for _ in benchmark.scaledIterations {
            analytics.report(webContentEvent)
        }
    }

    Benchmark("Web content: bridged productAddedToCart (decode, check, report), caller's thread") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(channel.receive(webContentMessage, from: page))
        }
    }

    // A message refused at the rate, before it is parsed: what a flood costs.
    let flooded = WebContentBridge(
        service: analytics, catalog: webContentCatalog,
        configuration: .init(allowedOrigins: [page], rate: WebContentRate(messagesPerSecond: 0, burst: 0))).makeChannel()
    Benchmark("Web content: message refused by the rate bucket, caller's thread") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(flooded.receive(webContentMessage, from: page))
        }
    }
}
