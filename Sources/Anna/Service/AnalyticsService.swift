import Dispatch
import Foundation
import Logging

/// Takes typed events from the app and delivers them to analytics providers.
///
/// ```swift
/// let analytics = AnalyticsService(providers: [LogProvider(), firebase])
/// analytics.report(.categoryAdded(categoryTitle: title, itemCount: 3, source: .manual))
/// await analytics.flush()
/// ```
///
/// ``report(_:)`` returns at once: it appends the event to an in-memory list under
/// a lock held only for that append, and never waits for disk, network or a
/// provider. A serial pipeline then checks consent and constraints, runs the
/// stages, enriches the event (message id, timestamp, session, identity, context)
/// and hands batches to one lane per provider. Each lane runs its provider on a
/// thread of its own, in report order, so a slow, throwing or hanging provider
/// delays no other.
public final class AnalyticsService: Sendable {
    /// What `report` touches: the pipeline's intake (it owns the loop that empties it).
    let intake: LockedState<Intake>
    private let pipeline: Pipeline
    let lanes: [ProviderLane]
    private let counters: LockedState<AnalyticsMetrics>
    let configuration: Configuration
    /// Wakes ``reportWaitingForRoom(_:)`` when the intake or a lane frees room.
    private let room: RoomSignal
    let persister: IdentityPersister
    /// The service's registration with ``Configuration/lifecycle``, and whether providers are suspended.
    let lifecycleState: LockedState<LifecycleState>

    /// Creates a service and starts its pipeline.
    /// - Parameters:
    ///   - providers: Where events go. Each gets its own lane.
    ///   - configuration: Consent, violation policy, stages, context and error handling.
    public init(providers: [any AnalyticsProvider], configuration: Configuration = Configuration()) {
        let counters = LockedState(AnalyticsMetrics())
        let room = RoomSignal()
        let lanes = providers.enumerated().map { index, provider in
            ProviderLane(
                provider: provider, index: index, limit: configuration.providerLimit, room: room,
                counters: counters, errorHandler: configuration.errorHandler)
        }
        self.room = room
        self.configuration = configuration
        self.counters = counters
        self.lanes = lanes
        self.lifecycleState = LockedState(LifecycleState(
            machine: LifecycleStateMachine(tracksLifecycleEvents: configuration.tracksLifecycleEvents)))
        let persister = IdentityPersister(
            store: configuration.resolvedIdentityStore, errorHandler: configuration.errorHandler)
        self.persister = persister
        let pipeline = Pipeline(
            configuration: configuration, lanes: lanes, counters: counters, persister: persister,
            intake: LockedState(Intake(grantedConsent: configuration.grantedConsent, limit: configuration.intakeLimit)), room: room)
        self.pipeline = pipeline
        self.intake = pipeline.intake
        room.onSignal { [weak pipeline] in pipeline?.lanesFreedRoom() }
        // The loop's first work: nothing is processed before the state is read.
        pipeline.startLoop()
        if let lifecycle = configuration.lifecycle {
            let observation = lifecycle.observe { [weak self] event in self?.handle(event) }
            lifecycleState.withLock { $0.observation = observation }
        }
    }

    deinit {
        lifecycleState.withLock { $0.observation?.cancel() }
        pipeline.close()
    }

    // MARK: Reporting

    /// Reports an event. Returns at once; delivery happens on the service's threads.
    ///
    /// The event is in memory when this returns, not yet safe from a crash: with
    /// ``DurableProvider`` it is accepted once that provider's writer has synced it
    /// to disk, within its sync interval (50 ms by default) plus what the pipeline
    /// takes: a thread woken on the first event after a pause, a few milliseconds at
    /// most. ``flush()`` and ``shutdown()`` wait for that.
    ///
    /// `report` never blocks. When the intake already holds
    /// ``Configuration/intakeLimit`` (the pipeline is behind a burst), the event is
    /// dropped, counted (``DropReason/overflow``) and reported to the error handler;
    /// ``reportWaitingForRoom(_:)`` waits for room instead.
    /// - Parameter event: The event, usually from a generated factory.
    public func report(_ event: AnalyticsEvent) {
        _ = take(event, at: Date(), size: event.approximateByteCount, dropsWhenFull: true)
    }

    /// Reports an event once the service has room for it: for bulk reporting (an
    /// importer, a server) that prefers waiting to dropping.
    ///
    /// Waits while the intake is at ``Configuration/intakeLimit``, or while what the
    /// intake and the pipeline hold would not fit in a provider's lane beside what
    /// it already holds (``Configuration/providerLimit``): the caller is paced by the
    /// slowest provider, and its events are not dropped for room. A provider that
    /// never returns from ``AnalyticsProvider/receive(_:)`` keeps this waiting.
    /// Returns at once after ``optOut()`` or ``shutdown()`` (the event is counted as
    /// dropped, as with ``report(_:)``).
    /// - Parameter event: The event.
    public func reportWaitingForRoom(_ event: AnalyticsEvent) async {
        let size = event.approximateByteCount
        while true {
            let generation = room.generation
            if lanesHaveRoom(), take(event, at: Date(), size: size, dropsWhenFull: false) { return }
            await room.wait(unlessSignalledSince: generation)
        }
    }

    /// Puts an event in the intake; `false` only when it is full and `dropsWhenFull` is not set.
    private func take(_ event: AnalyticsEvent, at now: Date, size: Int, dropsWhenFull: Bool) -> Bool {
        let admission = intake.withLock { $0.reported(event, at: now, size: size, dropsWhenFull: dropsWhenFull) }
        switch admission {
        case .taken(let wake):
            if wake == .signal { pipeline.wake() }
            return true
        case .dropped:
            return true
        case .full:
            return false
        }
    }

    /// Puts a call in the intake, in order with events. A call that sends a message
    /// counts as reported, is bounded by ``Configuration/intakeLimit`` like an event,
    /// and is dropped while opted out; its change of state is kept all the same.
    func take(_ call: Pipeline.Call, at now: Date) {
        let size = call.sendsMessage ? Self.callSize : 0
        if intake.withLock({ $0.called(call, at: now, messageSize: size) }) == .signal { pipeline.wake() }
    }

    /// The estimated bytes of a call's message.
    private static let callSize = 256

    /// Whether every lane can take what the intake and the pipeline hold, and one more.
    private func lanesHaveRoom() -> Bool {
        let (events, bytes) = intake.withLock { ($0.heldEvents + 1, $0.heldBytes) }
        return lanes.allSatisfy { $0.hasRoom(forEvents: events, bytes: bytes) }
    }

    /// Reports an event; the spelling of the analytics-service article.
    /// - Parameter event: The event.
    public func report(event: AnalyticsEvent) {
        report(event)
    }

    /// Waits until every provider has received every event reported before this call,
    /// and has finished its own ``AnalyticsProvider/flush()``.
    ///
    /// Also waits until the identity store holds every change made before the call.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            flushAndWrite { continuation.resume() }
        }
    }

    /// Stops taking events, delivers what was reported, and shuts every provider down.
    /// Events reported afterwards are counted as dropped (``DropReason/shutdown``).
    public func shutdown() async {
        intake.withLock { $0.shutDown() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            flushAndWrite(shutsDown: true) { continuation.resume() }
        }
        lifecycleState.withLock { $0.observation?.cancel() }
    }

    // MARK: Identity and consent

    /// The consent categories currently granted: the app's last choice, kept across
    /// launches, or ``Configuration/grantedConsent`` when it never chose.
    ///
    /// Never blocks: it returns the last known state, taken under the lock that
    /// ``report(_:)`` takes. Until the service has read the stored choice (on its
    /// pipeline, right after it is created) that is ``Configuration/grantedConsent``
    /// with the changes made since; `await analytics.identity` waits for the stored
    /// choice and tells it.
    public var grantedConsent: Set<ConsentCategory> {
        intake.withLock { $0.grantedConsent }
    }

    /// Grants consent categories for events reported from now on. The choice is kept
    /// across launches.
    /// - Parameter categories: The categories to add.
    public func grant(_ categories: ConsentCategory...) {
        changeConsent(.grant(Set(categories)))
    }

    /// Revokes consent categories for events reported from now on. Their events are
    /// dropped in memory and counted (``DropReason/consent``). The choice is kept across
    /// launches: the next launch drops them from its first event on.
    /// - Parameter categories: The categories to remove.
    public func revoke(_ categories: ConsentCategory...) {
        changeConsent(.revoke(Set(categories)))
    }

    /// Replaces the granted consent categories for events reported from now on. The
    /// choice is kept across launches.
    /// - Parameter categories: The categories granted.
    public func setConsent(_ categories: Set<ConsentCategory>) {
        changeConsent(.set(categories))
    }

    /// Changes and queues the granted set under one lock, so that concurrent grants and
    /// revocations all take effect, in the order they took the lock. Before the stored
    /// choice is read, the change is also kept to replay over it.
    private func changeConsent(_ change: ConsentChange) {
        if intake.withLock({ $0.consentChanged(change) }) == .signal { pipeline.wake() }
    }

    /// Whether the user opted out of collection; kept across launches.
    ///
    /// Never blocks: it returns the last known state. Until the service has read the
    /// stored choice (on its pipeline, right after it is created) that is `false`, or
    /// what ``optOut()`` and ``optIn()`` set since; events reported meanwhile are still
    /// checked against the stored choice before anything is sent.
    public var isOptedOut: Bool {
        intake.withLock { $0.isOptedOut }
    }

    /// Stops collection and deletes what is queued: events not yet taken by the
    /// pipeline, batches waiting for a provider, and whatever providers hold
    /// (``AnalyticsProvider/purge()``). Events reported while opted out are dropped
    /// and counted (``DropReason/optOut``).
    ///
    /// Collection stops when the call starts. It returns once every provider has
    /// received everything it was handed before and purged it, so that, with
    /// ``DurableProvider``, no request starts afterwards with an event reported
    /// before the call, and the deletion is on disk. A provider inside
    /// ``AnalyticsProvider/receive(_:)`` finishes that call first.
    ///
    /// From code that cannot wait, `Task { await analytics.optOut() }`.
    public func optOut() async {
        let epoch = intake.withLock { $0.optedOut() }
        persister.write(IdentityPatch(isOptedOut: true))
        room.signal()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let barrier = Barrier(parties: max(lanes.count, 1)) { continuation.resume() }
            if lanes.isEmpty { barrier.arrive() }
            for lane in lanes { lane.purge(epoch: epoch, then: barrier) }
        }
    }

    /// Resumes collection after ``optOut()``; kept across launches.
    public func optIn() {
        intake.withLock { $0.optedIn() }
        persister.write(IdentityPatch(isOptedOut: false))
    }

    // MARK: Metrics

    /// What the service counted so far. ``AnalyticsMetrics/lost`` sums every loss, per
    /// provider and reason.
    public var metrics: AnalyticsMetrics {
        let counts = intake.withLock { $0.counts }
        var metrics = counters.withLock { $0 }
        metrics.reported = counts.reported
        let intakeDrops = [(DropReason.optOut, counts.droppedOptOut), (.shutdown, counts.droppedShutdown), (.overflow, counts.droppedOverflow)]
        for (reason, count) in intakeDrops where count > 0 {
            metrics.dropped[reason, default: 0] += count
        }
        for lane in lanes {
            var lost = metrics.dropped
            if let overflowed = metrics.overflowed[lane.name], overflowed > 0 {
                lost[.overflow, default: 0] += overflowed
            }
            for (reason, count) in lane.provider.droppedEvents where count > 0 { lost[reason, default: 0] += count }
            metrics.lost[lane.name] = lost
        }
        return metrics
    }

    // MARK: Internals

    /// Counts events refused before they could be reported (the web-content bridge's
    /// refusals): in ``AnalyticsMetrics/dropped``, so every provider's
    /// ``AnalyticsMetrics/lost`` shows them.
    package func countRefused(_ reason: DropReason, count: Int = 1) {
        counters.withLock { $0.dropped[reason, default: 0] += count }
    }

    /// Hands an error to ``Configuration/errorHandler``, on the caller's thread.
    package func reportError(_ error: AnalyticsError) {
        configuration.errorHandler?(error)
    }

    /// Queues an item someone waits on (a flush, a shutdown, a read of the identity):
    /// it cuts the loop's linger short.
    func enqueueControl(_ item: Pipeline.Item) {
        if intake.withLock({ $0.controlled(item) }) == .signal { pipeline.wake() }
    }
}
