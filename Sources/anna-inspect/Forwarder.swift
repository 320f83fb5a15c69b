#if Inspector
import Foundation
import NIOConcurrencyHelpers
import _AnnaInspector
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Relays accepted requests, unchanged and in order, to the real collector: one
/// sender reads a bounded queue, so the inspector never waits on the upstream; a
/// request that finds the queue full is dropped and counted.
final class Forwarder: Sendable {
    /// One request as it arrived: its path, the headers that make it the same request, its body as sent.
    struct Relayed: Sendable {
        var path: String
        var headers: [(String, String)]
        var body: Data
    }

    private let continuation: AsyncStream<Relayed>.Continuation
    private let sender: Task<Void, Never>
    private let counters = NIOLockedValueBox(Counts())

    /// What happened to the requests so far; read at the end.
    private struct Counts {
        var forwarded = 0
        var failed = 0
        var dropped = 0
    }

    init(target: URL, capacity: Int) {
        let (stream, continuation) = AsyncStream<Relayed>.makeStream(bufferingPolicy: .bufferingOldest(capacity))
        self.continuation = continuation
        let counters = counters
        let session = URLSession(configuration: .ephemeral)
        sender = Task.detached {
            for await request in stream {
                var url = target
                url.append(path: String(request.path.drop { $0 == "/" }))
                var urlRequest = URLRequest(url: url)
                urlRequest.httpMethod = "POST"
                for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
                urlRequest.httpBody = request.body
                urlRequest.timeoutInterval = 10
                let ok: Bool
                do {
                    let (_, response) = try await session.data(for: urlRequest)
                    ok = ((response as? HTTPURLResponse)?.statusCode ?? 0) / 100 == 2
                } catch {
                    ok = false
                }
                counters.withLockedValue { if ok { $0.forwarded += 1 } else { $0.failed += 1 } }
            }
        }
    }

    /// Queues a request; never waits.
    func relay(_ request: Relayed) {
        if case .dropped = continuation.yield(request) {
            counters.withLockedValue { $0.dropped += 1 }
        }
    }

    /// The counts so far.
    var counts: (forwarded: Int, failed: Int, dropped: Int) {
        counters.withLockedValue { ($0.forwarded, $0.failed, $0.dropped) }
    }

    /// Stops taking requests, sends what is queued for at most `grace` seconds (an
    /// upstream that hangs does not hold up the exit), and returns the counts.
    func finish(target: String, grace: Double = 5) async -> InspectionReport.Forwarding {
        continuation.finish()
        let sender = sender
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Whichever task gets there first resumes `done`; the other finds nil.
            let once = NIOLockedValueBox<CheckedContinuation<Void, Never>?>(done)
            let resumeOnce: @Sendable () -> Void = {
                once.withLockedValue { pending in
                    defer { pending = nil }
                    return pending
                }?.resume()
            }
            Task { await sender.value; resumeOnce() }
            Task { try? await Task.sleep(for: .seconds(grace)); resumeOnce() }
        }
        sender.cancel()
        return counters.withLockedValue {
            InspectionReport.Forwarding(target: target, forwarded: $0.forwarded, failed: $0.failed, dropped: $0.dropped)
        }
    }
}

#endif
