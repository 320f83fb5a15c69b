import Anna
import Foundation

/// A provider that keeps everything it receives, for your unit tests.
///
/// ```swift
/// let recorder = RecordingProvider()
/// let analytics = AnalyticsService(providers: [recorder])
/// model.addCategory("Books")                     // reports through `analytics`
/// await analytics.flush()
/// #expect(recorder.events == [.categoryAdded(categoryTitle: "Books", itemCount: 3, source: .manual)])
/// ```
///
/// It may receive PII by default, so its events equal the ones reported. Give it
/// other ``Anna/ProviderOptions`` to see what a provider with a mapper, a profile or
/// without PII would receive.
public final class RecordingProvider: AnalyticsProvider, @unchecked Sendable {
    /// The name given at creation.
    public let name: String
    /// The options given at creation.
    public let options: ProviderOptions

    private let lock = NSLock()
    private var storedEnvelopes: [AnalyticsEnvelope] = []
    private var storedBatches = 0
    private var flushes = 0
    private var purges = 0
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Creates a recorder.
    /// - Parameters:
    ///   - name: Its name in metrics and errors.
    ///   - options: How the service prepares events for it; PII allowed by default.
    public init(name: String = "RecordingProvider", options: ProviderOptions = ProviderOptions(receivesPII: true)) {
        self.name = name
        self.options = options
    }

    /// The events received so far, in order.
    public var events: [AnalyticsEvent] { envelopes.map(\.event) }

    /// The envelopes received so far, in order, with message ids and context.
    public var envelopes: [AnalyticsEnvelope] { lock.withLock { storedEnvelopes } }

    /// How many batches were received.
    public var batchCount: Int { lock.withLock { storedBatches } }

    /// How many times the service flushed this provider.
    public var flushCount: Int { lock.withLock { flushes } }

    /// How many times the service asked this provider to purge, after an opt-out.
    public var purgeCount: Int { lock.withLock { purges } }

    /// Keeps the batch and wakes the waiters it satisfies.
    public func receive(_ batch: [AnalyticsEnvelope]) async throws {
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            storedEnvelopes.append(contentsOf: batch)
            storedBatches += 1
            let count = storedEnvelopes.count
            let ready = waiters.filter { $0.count <= count }.map(\.continuation)
            waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Counts the flush.
    public func flush() async throws {
        lock.withLock { flushes += 1 }
    }

    /// Forgets nothing (a recorder shows what was delivered) but counts the purge.
    public func purge() async {
        lock.withLock { purges += 1 }
    }

    /// Forgets everything received.
    public func reset() {
        lock.withLock {
            storedEnvelopes = []
            storedBatches = 0
        }
    }

    /// Returns once at least `count` events arrived. It waits on the delivery itself,
    /// not on a clock.
    /// - Parameter count: The number of events to wait for.
    public func waitForEvents(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock { () -> Bool in
                if storedEnvelopes.count >= count { return true }
                waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// A readable account of how the received events differ from `expected`, or
    /// `nil` when they are equal. See ``EventDifference``.
    /// - Parameter expected: The events the test expects, in order.
    public func difference(from expected: [AnalyticsEvent]) -> String? {
        EventDifference.describe(expected: expected, actual: events)
    }
}
