@_spi(Generated) import Anna
import Benchmark
import Foundation

// `report` on the caller's thread at a steady rate, as an app reports: at low rates
// most calls find the pipeline idle and must start it, which the back-to-back
// benchmark never sees. One `report` per sample; the wait for the next slot is
// outside the measurement. Default limits, three providers.

/// Waits for the next slot of a steady rate: sleeps for most of the gap and spins
/// for the rest, so 20 µs gaps (50,000 events/s) are kept as well as 100 ms ones.
struct Pacer {
    let interval: UInt64
    var next: UInt64 = 0

    init(eventsPerSecond: Int) {
        interval = 1_000_000_000 / UInt64(eventsPerSecond)
    }

    mutating func waitForNextSlot() {
        let now = DispatchTime.now().uptimeNanoseconds
        if next == 0 || now > next + interval { next = now }
        next += interval
        var remaining = next > now ? next - now : 0
        if remaining > 200_000 {
            usleep(useconds_t((remaining - 100_000) / 1_000))
        }
        repeat {
            let current = DispatchTime.now().uptimeNanoseconds
            remaining = next > current ? next - current : 0
        } while remaining > 0
    }
}

func pacedReportBenchmarks() {
    for (rate, samples) in [(10, 300), (1_000, 5_000), (50_000, 100_000)] {
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock],
            warmupIterations: min(samples / 10, 1_000),
            scalingFactor: .one,
            maxDuration: .seconds(Int64(samples / rate) + 10),
            maxIterations: samples
        )
        // The floor at that rate: a lock and an append, what `report` does when the
        // pipeline is awake, so a cold cache after the gap shows here too.
        let floor = BareIntake()
        nonisolated(unsafe) var floorPacer = Pacer(eventsPerSecond: rate)
        Benchmark("Bare lock and append, caller's thread, paced at \(rate.formatted()) events/s", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                floorPacer.waitForNextSlot()
                benchmark.startMeasurement()
                floor.append(sampleEvent)
                benchmark.stopMeasurement()
            }
        }

        let analytics = AnalyticsService(providers: threeProviders())
        nonisolated(unsafe) var pacer = Pacer(eventsPerSecond: rate)
        Benchmark("Anna report, caller's thread, paced at \(rate.formatted()) events/s", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                pacer.waitForNextSlot()
                benchmark.startMeasurement()
                analytics.report(sampleEvent)
                benchmark.stopMeasurement()
            }
        }
    }
}

/// A lock and an array of events, emptied now and then off the measurement.
final class BareIntake: @unchecked Sendable {   // every access is under `lock`
    private let lock = NSLock()
    private var events: [AnalyticsEvent] = []

    func append(_ event: AnalyticsEvent) {
        lock.lock()
        events.append(event)
        if events.count >= 4_096 { events.removeAll(keepingCapacity: true) }
        lock.unlock()
    }
}
