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
    private let intake: LockedState<Intake>
    private let pipeline: Pipeline
    private let lanes: [ProviderLane]
    private let counters: LockedState<AnalyticsMetrics>

    /// Creates a service and starts its pipeline.
    /// - Parameters:
    ///   - providers: Where events go. Each gets its own lane.
    ///   - configuration: Consent, violation policy, stages, context and error handling.
    public init(providers: [any AnalyticsProvider], configuration: Configuration = Configuration()) {
        let counters = LockedState(AnalyticsMetrics())
        let lanes = providers.enumerated().map { index, provider in
            ProviderLane(provider: provider, index: index, counters: counters, errorHandler: configuration.errorHandler)
        }
        self.counters = counters
        self.lanes = lanes
        self.intake = LockedState(Intake(grantedConsent: configuration.grantedConsent))
        self.pipeline = Pipeline(configuration: configuration, lanes: lanes, counters: counters)
    }

    // MARK: Reporting

    /// Reports an event. Returns at once; delivery happens on the service's threads.
    ///
    /// The event is in memory when this returns, not yet safe from a crash: with
    /// ``HTTPBatchProvider`` it is accepted once that provider's writer has synced it
    /// to disk, within its sync interval (50 ms by default) plus the few milliseconds
    /// the pipeline takes. ``flush()`` and ``shutdown()`` wait for that.
    /// - Parameter event: The event, usually from a generated factory.
    public func report(_ event: AnalyticsEvent) {
        let now = Date()
        let schedule = intake.withLock { intake -> Bool in
            intake.reported += 1
            guard intake.isCollecting && intake.isAccepting else {
                if intake.isAccepting { intake.droppedOptOut += 1 } else { intake.droppedShutdown += 1 }
                return false
            }
            intake.items.append(.event(event, now))
            return intake.schedule()
        }
        if schedule { startPipeline() }
    }

    /// Reports an event; the spelling of the analytics-service article.
    /// - Parameter event: The event.
    public func report(event: AnalyticsEvent) {
        report(event)
    }

    /// Waits until every provider has received every event reported before this call,
    /// and has finished its own ``AnalyticsProvider/flush()``.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let barrier = Barrier(parties: max(lanes.count, 1)) { continuation.resume() }
            enqueueControl(.drain(barrier, shutsDown: false))
        }
    }

    /// Stops taking events, delivers what was reported, and shuts every provider down.
    /// Events reported afterwards are counted as dropped (``DropReason/shutdown``).
    public func shutdown() async {
        intake.withLock { $0.isAccepting = false }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let barrier = Barrier(parties: max(lanes.count, 1)) { continuation.resume() }
            enqueueControl(.drain(barrier, shutsDown: true))
        }
    }

    // MARK: Identity and consent

    /// Sets the user's identifier for events reported from now on; `nil` after sign-out.
    /// - Parameter userID: The identifier, or `nil`.
    public func identify(userID: String?) {
        enqueueControl(.identify(userID))
    }

    /// The consent categories currently granted.
    public var grantedConsent: Set<ConsentCategory> {
        intake.withLock { $0.grantedConsent }
    }

    /// Grants consent categories for events reported from now on.
    /// - Parameter categories: The categories to add.
    public func grant(_ categories: ConsentCategory...) {
        setConsent(grantedConsent.union(categories))
    }

    /// Revokes consent categories for events reported from now on. Their events are
    /// dropped in memory and counted (``DropReason/consent``).
    /// - Parameter categories: The categories to remove.
    public func revoke(_ categories: ConsentCategory...) {
        setConsent(grantedConsent.subtracting(categories))
    }

    /// Replaces the granted consent categories for events reported from now on.
    /// - Parameter categories: The categories granted.
    public func setConsent(_ categories: Set<ConsentCategory>) {
        let schedule = intake.withLock { intake -> Bool in
            intake.grantedConsent = categories
            intake.items.append(.consent(categories))
            return intake.schedule()
        }
        if schedule { startPipeline() }
    }

    /// Whether the user opted out of collection.
    public var isOptedOut: Bool {
        intake.withLock { !$0.isCollecting }
    }

    /// Stops collection and deletes what is queued: events not yet taken by the
    /// pipeline, batches waiting for a provider, and whatever providers hold
    /// (``AnalyticsProvider/purge()``). Events reported while opted out are dropped
    /// and counted (``DropReason/optOut``).
    public func optOut() {
        let epoch = intake.withLock { intake -> Int in
            intake.isCollecting = false
            intake.epoch += 1
            let before = intake.items.count
            intake.items.removeAll { if case .event = $0 { true } else { false } }
            intake.droppedOptOut += before - intake.items.count
            return intake.epoch
        }
        for lane in lanes { lane.purge(epoch: epoch) }
    }

    /// Resumes collection after ``optOut()``.
    public func optIn() {
        intake.withLock { $0.isCollecting = true }
    }

    // MARK: Metrics

    /// What the service counted so far.
    public var metrics: AnalyticsMetrics {
        let (reported, optOut, shutdown) = intake.withLock { ($0.reported, $0.droppedOptOut, $0.droppedShutdown) }
        var metrics = counters.withLock { $0 }
        metrics.reported = reported
        metrics.dropped[.optOut, default: 0] += optOut
        metrics.dropped[.shutdown, default: 0] += shutdown
        return metrics
    }

    // MARK: Internals

    private func enqueueControl(_ item: Pipeline.Item) {
        let schedule = intake.withLock { intake -> Bool in
            intake.items.append(item)
            return intake.schedule()
        }
        if schedule { startPipeline() }
    }

    private func startPipeline() {
        pipeline.queue.async { [self] in drain(lingered: false) }
    }

    /// Processes what was reported until the intake is empty, then lingers for
    /// ``Pipeline/linger`` before it goes idle: while events keep coming, `report`
    /// finds the pipeline scheduled and never pays for waking a thread.
    private func drain(lingered: Bool) {
        var lingered = lingered
        while true {
            let (items, epoch) = intake.withLock { intake -> ([Pipeline.Item], Int) in
                guard !intake.items.isEmpty else {
                    if lingered { intake.isScheduled = false }
                    return ([], intake.epoch)
                }
                var taken = intake.spare
                swap(&taken, &intake.items)
                return (taken, intake.epoch)
            }
            if items.isEmpty {
                if !lingered {
                    pipeline.queue.asyncAfter(deadline: .now() + Pipeline.linger) { [self] in drain(lingered: true) }
                }
                return
            }
            lingered = false
            var used = pipeline.process(items, epoch: epoch)
            if used.capacity <= 1 << 16 {
                used.removeAll(keepingCapacity: true)
                intake.withLock { $0.spare = used }
            }
        }
    }

    /// What `report` touches, behind one short lock.
    private struct Intake {
        var items: [Pipeline.Item] = []
        var spare: [Pipeline.Item] = []
        var isScheduled = false
        var isCollecting = true
        var isAccepting = true
        var epoch = 0
        var reported = 0
        var droppedOptOut = 0
        var droppedShutdown = 0
        var grantedConsent: Set<ConsentCategory>

        init(grantedConsent: Set<ConsentCategory>) {
            self.grantedConsent = grantedConsent
            items.reserveCapacity(1024)
            spare.reserveCapacity(1024)
        }

        /// Marks the pipeline scheduled; `true` when the caller must start it.
        mutating func schedule() -> Bool {
            if isScheduled { return false }
            isScheduled = true
            return true
        }
    }
}

/// Counts parties down and runs an action when the last one arrives. The lanes are
/// the parties of a drain; with no lanes the pipeline is its one party.
final class Barrier: Sendable {
    private let remaining: LockedState<Int>
    private let action: @Sendable () -> Void

    init(parties: Int, action: @escaping @Sendable () -> Void) {
        remaining = LockedState(parties)
        self.action = action
    }

    func arrive() {
        if remaining.withLock({ remaining -> Bool in
            remaining -= 1
            return remaining == 0
        }) {
            action()
        }
    }
}
