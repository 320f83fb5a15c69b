@_spi(DurableQueue) import Anna
import Benchmark
import Foundation

// What an app extension's lock policy (`.aroundIO`: the lock taken and given up around
// every disk operation, the folder compared with memory each time) costs against an
// app's (`.whileRunning`), for a trickle of events each synced on its own (in bulk: the shared-folder
// benchmark of DeliveryBenchmarks.swift runs under both).

let trickleCount = 200

func lockPolicyBenchmarks(_ durable: Benchmark.Configuration) {
    for policy in DeliveryStorage.LockPolicy.allCases {
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
