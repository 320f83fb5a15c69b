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
public final class RecordingProvider: AnalyticsProvider, Sendable {
    /// The name given at creation.
    public let name: String
    /// The options given at creation.
    public let options: ProviderOptions

    private struct State {
        var envelopes: [AnalyticsEnvelope] = []
        var batches = 0
        var flushes = 0
        var purges = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = LockedState(State())

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
    public var envelopes: [AnalyticsEnvelope] { state.withLock { $0.envelopes } }

    /// How many batches were received.
    public var batchCount: Int { state.withLock { $0.batches } }

    /// How many times the service flushed this provider.
    public var flushCount: Int { state.withLock { $0.flushes } }

    /// How many times the service asked this provider to purge, after an opt-out.
    public var purgeCount: Int { state.withLock { $0.purges } }

    /// Keeps the batch and wakes the waiters it satisfies.
    public func receive(_ batch: [AnalyticsEnvelope]) async throws {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.envelopes.append(contentsOf: batch)
            state.batches += 1
            let count = state.envelopes.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Counts the flush.
    public func flush() async throws {
        state.withLock { $0.flushes += 1 }
    }

    /// Forgets nothing (a recorder shows what was delivered) but counts the purge.
    public func purge() async {
        state.withLock { $0.purges += 1 }
    }

    /// Forgets everything received.
    public func reset() {
        state.withLock { state in
            state.envelopes = []
            state.batches = 0
        }
    }

    /// Returns once at least `count` events arrived. It waits on the delivery itself,
    /// not on a clock.
    /// - Parameter count: The number of events to wait for.
    public func waitForEvents(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.envelopes.count >= count { return true }
                state.waiters.append((count, continuation))
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
