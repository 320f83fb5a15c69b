@_spi(Generated) import Anna
import Benchmark
import Foundation

// `report` on the caller's thread and end-to-end throughput to three providers, for
// Anna's AnalyticsService and, in the same run, for the analytics-service article's
// design (a service that calls every provider synchronously on the caller's thread).

/// A provider that takes batches and keeps a count, as an SDK adapter that queues would.
final class CountingProvider: AnalyticsProvider, @unchecked Sendable {
    let name: String
    let options: ProviderOptions
    private let lock = NSLock()
    private var taken = 0
    private var lastName = ""

    init(name: String, options: ProviderOptions = ProviderOptions()) {
        self.name = name
        self.options = options
    }

    func receive(_ batch: [AnalyticsEnvelope]) async throws {
        lock.withLock {
            taken += batch.count
            lastName = batch.last?.event.name ?? lastName
        }
    }
}

/// The three providers of every run: Firebase-style (snake case, Firebase's limits),
/// and two that take events as they are.
func threeProviders() -> [any AnalyticsProvider] {
    [
        CountingProvider(name: "firebase", options: ProviderOptions(mapper: SnakeCaseEventMapper(), profile: .firebase)),
        CountingProvider(name: "warehouse", options: ProviderOptions(receivesPII: true)),
        CountingProvider(name: "log"),
    ]
}

// MARK: The article's design, the baseline to beat

/// The article's provider: takes one event at a time on the caller's thread.
protocol ArticleProvider: Sendable {
    func report(event: AnalyticsEvent)
}

/// The article's service: loops over its providers on the caller's thread.
final class ArticleAnalyticsService: Sendable {
    private let providers: [any ArticleProvider]
    init(providers: [any ArticleProvider]) { self.providers = providers }
    func report(event: AnalyticsEvent) {
        for provider in providers { provider.report(event: event) }
    }
}

/// The article's Firebase provider maps every name on every call; the others take
/// the event as it is. Each keeps what it took behind a lock, as an SDK's queue would.
final class ArticleCountingProvider: ArticleProvider, @unchecked Sendable {
    private let mapper: SnakeCaseEventMapper?
    private let lock = NSLock()
    private var taken: [AnalyticsEvent] = []

    init(mapper: SnakeCaseEventMapper? = nil) { self.mapper = mapper }

    func report(event: AnalyticsEvent) {
        var event = event
        if let mapper {
            event.name = mapper.name(for: event.name)
            event.parameters = Dictionary(uniqueKeysWithValues: event.parameters.map { (mapper.parameterName(for: $0.key), $0.value) })
        }
        lock.withLock {
            taken.append(event)
            if taken.count >= 4096 { taken.removeAll(keepingCapacity: true) }
        }
    }
}

func articleService() -> ArticleAnalyticsService {
    ArticleAnalyticsService(providers: [ArticleCountingProvider(mapper: SnakeCaseEventMapper()), ArticleCountingProvider(), ArticleCountingProvider()])
}

/// What a generated factory builds: `.categoryAdded(categoryTitle: "Books", itemCount: 3, source: .manual)`.
let sampleEvent = AnalyticsEvent(
    name: "categoryAdded",
    parameters: ["categoryTitle": "Books", "itemCount": 3, "source": "manual"],
    metadata: .init(constraints: ["categoryTitle": ParameterConstraint(maxLength: 100)])
)

let eventsPerThroughputRun = 100_000

/// The same event with its own parameters dictionary and a different count each
/// time, as a generated factory called with changing values builds it: no provider
/// can reuse the work it did for the event before.
func distinctEvent(_ index: Int) -> AnalyticsEvent {
    AnalyticsEvent(
        name: "categoryAdded",
        parameters: ["categoryTitle": "Books", "itemCount": .int(index), "source": "manual"],
        metadata: sampleEvent.metadata
    )
}

/// Room for every event of a run: these benchmarks measure the path of an accepted
/// event, as before the intake and lanes were bounded. With the default limits a
/// burst faster than the pipeline drops what does not fit (see DeliveryBenchmarks'
/// burst benchmark for memory under the defaults).
func unbounded() -> AnalyticsService.Configuration {
    var configuration = AnalyticsService.Configuration()
    configuration.intakeLimit = MemoryLimit(events: .max / 2, bytes: .max / 2)
    configuration.providerLimit = MemoryLimit(events: .max / 2, bytes: .max / 2)
    return configuration
}

/// An order with ten products, each an object of seven properties, one of them PII,
/// with constraints inside, as the factory of an object type builds it.
let orderWithTenProducts = AnalyticsEvent(
    name: "Order Completed",
    parameters: [
        "orderID": "3F2A-19C7", "revenue": 199.5, "currency": "EUR",
        "products": .array((0..<10).map { index in
            .object([
                "productID": .string("SKU-\(1000 + index)"), "name": .string("Product \(index)"), "brand": "Acme",
                "price": .double(19.95), "quantity": .int(1 + index % 3), "position": .int(index + 1),
                "giftEmail": "ada@example.com",
            ])
        }),
    ],
    metadata: .init(
        piiKeys: ["products/giftEmail"],
        constraints: ["products/price": ParameterConstraint(min: 0), "products/quantity": ParameterConstraint(min: 1)])
)

/// Three global properties, as a generated `globals:` section would set them.
func setThreeGlobals(_ analytics: AnalyticsService) {
    analytics.setGlobal(AnalyticsGlobal(name: "theme", value: "dark"))
    analytics.setGlobal(AnalyticsGlobal(name: "plan", value: "pro"))
    analytics.setGlobal(AnalyticsGlobal(name: "experiment", value: "one-tap-checkout"))
}

/// Two traits, one of them PII, as generated `traits:` factories make them.
let sampleTraits = [
    UserTrait(name: "email", value: "ada@example.com"),
    UserTrait(name: "loyaltyTier", value: "gold", metadata: PropertyMetadata(isPII: false)),
]

/// A screen with one property, as a generated `screens:` factory makes it.
let sampleScreen = AnalyticsScreen(name: "Product Detail", properties: ["productID": "SKU-1001"])

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1_000,
        scalingFactor: .one,
        maxDuration: .seconds(5),
        maxIterations: 1_000_000
    )

    // One `report` per sample: the latency an app's caller sees. The services live
    // across samples, as an app's does; Anna's pipeline delivers in the background.
    let anna = AnalyticsService(providers: threeProviders(), configuration: unbounded())
    let article = articleService()

    Benchmark("Anna report, caller's thread") { benchmark in
        for _ in benchmark.scaledIterations {
            anna.report(sampleEvent)
        }
    }

    // An event with a list of ten objects, beside the scalar event above.
    Benchmark("Anna report, caller's thread, order with 10 products") { benchmark in
        for _ in benchmark.scaledIterations {
            anna.report(orderWithTenProducts)
        }
    }

    // The same with three global properties set: the pipeline adds them, `report` does not.
    let withGlobals = AnalyticsService(providers: threeProviders(), configuration: unbounded())
    setThreeGlobals(withGlobals)

    Benchmark("Anna report, caller's thread, 3 globals set") { benchmark in
        for _ in benchmark.scaledIterations {
            withGlobals.report(sampleEvent)
        }
    }

    Benchmark("Anna identify with 2 traits, caller's thread") { benchmark in
        for _ in benchmark.scaledIterations {
            anna.identify(userID: "user-1", traits: sampleTraits)
        }
    }

    Benchmark("Anna screen, caller's thread") { benchmark in
        for _ in benchmark.scaledIterations {
            anna.screen(sampleScreen)
        }
    }

    Benchmark("Article design report, caller's thread") { benchmark in
        let analytics = article
        for _ in benchmark.scaledIterations {
            analytics.report(event: sampleEvent)
        }
    }

    // 100,000 events reported and delivered to all three providers per iteration.
    let throughput = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 2,
        scalingFactor: .one,
        maxDuration: .seconds(20),
        maxIterations: 30
    )

    Benchmark("Anna throughput, 100,000 events to 3 providers", configuration: throughput) { benchmark in
        for _ in benchmark.scaledIterations {
            let analytics = AnalyticsService(providers: threeProviders(), configuration: unbounded())
            for _ in 0..<eventsPerThroughputRun { analytics.report(sampleEvent) }
            await analytics.flush()
        }
    }

    Benchmark("Anna throughput, 100,000 events with 3 globals to 3 providers", configuration: throughput) { benchmark in
        for _ in benchmark.scaledIterations {
            let analytics = AnalyticsService(providers: threeProviders(), configuration: unbounded())
            setThreeGlobals(analytics)
            for _ in 0..<eventsPerThroughputRun { analytics.report(sampleEvent) }
            await analytics.flush()
        }
    }

    // Orders of ten products end to end: constraints checked inside every object, PII
    // removed inside them for the providers that may not receive it.
    Benchmark("Anna throughput, 100,000 orders of 10 products to 3 providers", configuration: throughput) { benchmark in
        for _ in benchmark.scaledIterations {
            let analytics = AnalyticsService(providers: threeProviders(), configuration: unbounded())
            for _ in 0..<eventsPerThroughputRun { analytics.report(orderWithTenProducts) }
            await analytics.flush()
        }
    }

    Benchmark("Article design throughput, 100,000 events to 3 providers", configuration: throughput) { benchmark in
        for _ in benchmark.scaledIterations {
            let analytics = articleService()
            for _ in 0..<eventsPerThroughputRun { analytics.report(event: sampleEvent) }
        }
    }

    // The same with a new parameters dictionary per event (see `distinctEvent`).
    Benchmark("Anna throughput, 100,000 distinct events to 3 providers", configuration: throughput) { benchmark in
        for _ in benchmark.scaledIterations {
            let analytics = AnalyticsService(providers: threeProviders(), configuration: unbounded())
            for index in 0..<eventsPerThroughputRun { analytics.report(distinctEvent(index)) }
            await analytics.flush()
        }
    }

    Benchmark("Article design throughput, 100,000 distinct events to 3 providers", configuration: throughput) { benchmark in
        for _ in benchmark.scaledIterations {
            let analytics = articleService()
            for index in 0..<eventsPerThroughputRun { analytics.report(event: distinctEvent(index)) }
        }
    }

    // The most one value can cost the pipeline's thread: the largest program the
    // pattern engine accepts (about 4,000 instructions) on a 4,096-character value
    // that never matches. Ten such events a run, then the flush; per event, divide by 10.
    Benchmark(
        "Pattern check, worst accepted pattern on 4,096 characters, 10 events",
        configuration: .init(metrics: [.wallClock], warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 10)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let analytics = AnalyticsService(providers: [CountingProvider(name: "log")], configuration: unbounded())
            for _ in 0..<10 { analytics.report(worstPatternEvent) }
            await analytics.flush()
        }
    }

    // The most a value that is matched can cost: the same pattern on the longest value
    // its program matches within the step budget (61 characters), never matching.
    Benchmark(
        "Pattern check, worst accepted pattern on the longest value it matches (61 characters), 10 events",
        configuration: .init(metrics: [.wallClock], warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 20)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let analytics = AnalyticsService(providers: [CountingProvider(name: "log")], configuration: unbounded())
            for _ in 0..<10 { analytics.report(worstPatternLongestMatchedEvent) }
            await analytics.flush()
        }
    }

    pacedReportBenchmarks()
    webContentBenchmarks()
}

/// The worst accepted pattern on 61 letters: matched (no `x`, so it runs the whole program at every position).
let worstPatternLongestMatchedEvent = AnalyticsEvent(
    name: "searched",
    parameters: ["query": .string(String(repeating: "a", count: 61))],
    metadata: .init(constraints: ["query": ParameterConstraint(pattern: "(?:.?){1000}(?:.?){990}x")])
)

/// `(?:.?){1000}(?:.?){990}x` against 4,096 letters: no `x`, so every position runs the whole program.
let worstPatternEvent = AnalyticsEvent(
    name: "searched",
    parameters: ["query": .string(String(repeating: "a", count: 4096))],
    metadata: .init(constraints: ["query": ParameterConstraint(pattern: "(?:.?){1000}(?:.?){990}x")])
)
