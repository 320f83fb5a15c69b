@_spi(DurableQueue) import Anna
import Benchmark
import Foundation

// What an app extension's lock policy (`.aroundIO`: the lock taken and given up around
// every disk operation, the folder compared with memory each time) costs against an
// app's (`.whileRunning`), in bulk and for a trickle of events each synced on its own.

let trickleCount = 200

func lockPolicyBenchmarks(_ durable: Benchmark.Configuration) {
    for policy in DeliveryStorage.LockPolicy.allCases {
        Benchmark("Shared folder, 100,000 events, lock \(policy)", configuration: durable) { benchmark in
            let envelopes = (0..<1000).map { _ in
                AnalyticsEnvelope(event: deliveryEvent, messageID: UUID(), timestamp: Date(), sessionID: 1,
                                  anonymousID: "6f1c2a9e-1b7d-4c3e-9f0a-2d4b6c8e0a1f", context: .current())
            }
            for _ in benchmark.scaledIterations {
                let folder = scratchDirectory("policy-bulk")
                benchmark.startMeasurement()
                let provider = try! HTTPBatchProvider(
                    endpoint: offlineEndpoint, writeKey: "bench", storage: .shared(folder),
                    configuration: .init(flushAt: .max, flushInterval: .seconds(3600), maxRetryDelay: .seconds(3600),
                                         queue: .init(maxBytes: 1 << 30, lockPolicy: policy)))
                for _ in 0..<recordsPerRun / envelopes.count { try? await provider.receive(envelopes) }
                await provider.waitUntilPersisted()
                benchmark.stopMeasurement()
                precondition(provider.metrics.persisted == recordsPerRun)
                await provider.shutdown()
                try? FileManager.default.removeItem(at: folder)
            }
        }
        Benchmark("DurableQueue trickle: \(trickleCount) events each synced alone, lock \(policy)", configuration: durable) { benchmark in
            for _ in benchmark.scaledIterations {
                let directory = scratchDirectory("policy-trickle")
                guard let queue = try? DurableQueue(
                    storage: .directory(directory), configuration: .init(maxBytes: 1 << 30, lockPolicy: policy))
                else { preconditionFailure("the scratch directory is locked") }
                await queue.waitUntilPersisted()
                benchmark.startMeasurement()
                for _ in 0..<trickleCount {
                    queue.append(storedRecord)
                    await queue.waitUntilPersisted()
                }
                benchmark.stopMeasurement()
                precondition(queue.metrics.persisted == trickleCount)
                try? FileManager.default.removeItem(at: directory)
            }
        }
    }
}
