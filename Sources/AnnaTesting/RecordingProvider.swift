@_spi(Generated) import Anna
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
/// It may receive PII and takes every kind of call by default, so its events equal the
/// ones reported, and ``screens`` and ``calls(_:)`` show the `screen`, `identify`,
/// `group` and `alias` calls. Give it other ``Anna/ProviderOptions`` to see what a
/// provider with a mapper, a profile, without PII or taking only `track` would receive.
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
        var suspends = 0
        var resumes = 0
        var tracks = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = LockedState(State())

    /// Creates a recorder.
    /// - Parameters:
    ///   - name: Its name in metrics and errors.
    ///   - options: How the service prepares events for it; PII and every kind of call
    ///     allowed by default.
    public init(
        name: String = "RecordingProvider",
        options: ProviderOptions = ProviderOptions(
            receivesPII: true, receivedKinds: Set(AnalyticsEnvelope.Kind.allCases))
    ) {
        self.name = name
        self.options = options
    }

    /// The events (`track` calls) received so far, in order.
    public var events: [AnalyticsEvent] { envelopes.map(\.event) }

    /// The envelopes of the events (`track` calls) received so far, in order, with
    /// message ids and context. ``allEnvelopes`` has the other calls too.
    public var envelopes: [AnalyticsEnvelope] { calls(.track) }

    /// The envelopes received so far, of every kind (`track`, `screen`, `identify`,
    /// `group`, `alias`), in order.
    public var allEnvelopes: [AnalyticsEnvelope] { state.withLock { $0.envelopes } }

    /// The envelopes of one kind received so far, in order: `calls(.identify)`.
    /// - Parameter kind: The kind of call.
    public func calls(_ kind: AnalyticsEnvelope.Kind) -> [AnalyticsEnvelope] {
        state.withLock { $0.envelopes.filter { $0.kind == kind } }
    }

    /// The screens received so far, in order.
    public var screens: [AnalyticsScreen] {
        calls(.screen).map { AnalyticsScreen(name: $0.event.name, properties: $0.event.parameters, metadata: $0.event.metadata) }
    }

    /// How many times the service suspended this provider (the app went to the background).
    public var suspendCount: Int { state.withLock { $0.suspends } }

    /// How many times the service resumed this provider (the app came back).
    public var resumeCount: Int { state.withLock { $0.resumes } }

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
            state.tracks += batch.reduce(0) { $0 + ($1.kind == .track ? 1 : 0) }
            let count = state.tracks
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

    /// Counts the suspension.
    public func suspend() async {
        state.withLock { $0.suspends += 1 }
    }

    /// Counts the resumption.
    public func resume() async {
        state.withLock { $0.resumes += 1 }
    }

    /// Forgets everything received.
    public func reset() {
        state.withLock { state in
            state.envelopes = []
            state.batches = 0
            state.tracks = 0
        }
    }

    /// Returns once at least `count` events (`track` calls) arrived. It waits on the
    /// delivery itself, not on a clock.
    /// - Parameter count: The number of events to wait for.
    public func waitForEvents(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.tracks >= count { return true }
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

    /// A readable account of how the received screens differ from `expected`, or `nil`
    /// when they are equal (names, properties and metadata).
    /// - Parameter expected: The screens the test expects, in order.
    public func difference(from expected: [AnalyticsScreen]) -> String? {
        func event(_ screen: AnalyticsScreen) -> AnalyticsEvent {
            AnalyticsEvent(name: screen.name, parameters: screen.properties, metadata: screen.metadata)
        }
        return EventDifference.describe(expected: expected.map(event), actual: screens.map(event))
            .map { $0.replacingOccurrences(of: "event", with: "screen") }
    }
}
