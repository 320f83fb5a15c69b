import Dispatch
import Foundation
import Logging

/// The service's serial pipeline: consent, constraints, stages, enrichment, and
/// the hand-off to the provider lanes, and the loop that takes what `report` puts in
/// its intake (``Pipeline/startLoop()``). All of its other state lives on `queue`.
// @unchecked: the `var`s below are touched only on `queue` (checked once per pass in
// debug builds, `assertOnQueue()`); `intake` is behind its lock.
final class Pipeline: @unchecked Sendable {
    enum Item: Sendable {
        /// An event, when it was reported, and its estimated bytes.
        case event(AnalyticsEvent, Date, size: Int)
        /// A call other than `report`, when it was made, and its estimated bytes when it
        /// sends a message (0 when it only changes state).
        case call(Call, Date, size: Int)
        case consent(ConsentChange)
        /// Hands the identity, as of the items before it, to a reader.
        case read(@Sendable (AnalyticsIdentity) -> Void)
        /// Everything before it reaches every provider, which then flushes (and shuts down).
        case drain(Barrier, shutsDown: Bool)
        /// What the pipeline leaves in the array where it moved an item out.
        case moved
    }

    let queue = DispatchQueue(label: "anna.pipeline", qos: .utility)
    /// How long the loop waits for more work after a pass that found some, before it
    /// parks: events that keep coming find it awake and wake no thread.
    static let lingerInterval: DispatchTimeInterval = .milliseconds(2)
    /// Wakes the loop's thread (``Pipeline/startLoop()``) when the intake says so.
    let wakeSignal = DispatchSemaphore(value: 0)
    let lanes: [ProviderLane]
    private let counters: LockedState<AnalyticsMetrics>
    /// What `report` appends to, under its lock; emptied by the loop on `queue`.
    let intake: LockedState<Intake>
    /// Signalled when a lane or the intake frees room.
    let room: RoomSignal
    let configuration: AnalyticsService.Configuration
    private let beforeStages: [any AnalyticsStage]
    private let enrichmentStages: [any AnalyticsStage]
    let sessionTimeout: TimeInterval
    let persister: IdentityPersister

    // State owned by `queue`. Only the pipeline's queue touches it, one item at a time,
    // so accesses never overlap: dynamic exclusivity checks, which the extension in
    // another file would otherwise force on every access per event, are turned off.
    @exclusivity(unchecked) var granted: Set<ConsentCategory>
    @exclusivity(unchecked) private var lastCategory: ConsentCategory?
    @exclusivity(unchecked) private var lastCategoryGranted = false
    @exclusivity(unchecked) var anonymousID: String
    @exclusivity(unchecked) var userID: String?
    @exclusivity(unchecked) var traits = GlobalProperties()
    @exclusivity(unchecked) var globals = GlobalProperties()
    @exclusivity(unchecked) var sessionID: Int64 = 0
    /// The origin the last envelopes shared; replaced when the session or an identifier changes.
    @exclusivity(unchecked) private var lastOrigin: EnvelopeOrigin?
    @exclusivity(unchecked) var lastEventTime: Date = .distantPast
    /// When the session was last written to the store; written at most every few seconds.
    @exclusivity(unchecked) var sessionWritten: Date = .distantPast
    @exclusivity(unchecked) private var ids = MessageIDGenerator()
    @exclusivity(unchecked) private var checker = ConstraintChecker()
    /// Estimated bytes of the envelopes `process` has gathered and not yet handed off.
    @exclusivity(unchecked) private var outgoingBytes = 0

    init(
        configuration: AnalyticsService.Configuration, lanes: [ProviderLane], counters: LockedState<AnalyticsMetrics>,
        persister: IdentityPersister, intake: LockedState<Intake>, room: RoomSignal
    ) {
        self.intake = intake
        self.room = room
        self.configuration = configuration
        self.persister = persister
        self.anonymousID = configuration.anonymousID ?? ""

        self.lanes = lanes
        self.counters = counters
        self.granted = configuration.grantedConsent
        self.beforeStages = configuration.stages.filter { $0.phase == .before }
        self.enrichmentStages = configuration.stages.filter { $0.phase == .enrichment }
        self.sessionTimeout = configuration.sessionTimeout.timeInterval
    }

    /// Processes items in order, moving each out of `items` (which keeps its capacity
    /// for reuse, holding ``Item/moved``).
    /// - Returns: How many events it took, and their estimated bytes.
    func process(_ items: inout [Item], epoch: Int) -> (events: Int, bytes: Int) {
        assertOnQueue()
        var dropped: [DropReason: Int] = [:]
        var violations = 0
        var forwarded = 0
        var taken = (events: 0, bytes: 0)
        // A local, not a property: appending through the class costs an access check per event.
        var batch: [AnalyticsEnvelope] = []
        batch.reserveCapacity(items.count)
        for index in items.indices {
            // Moved rather than copied, so the event's storage is not retained here and
            // released again with the array.
            var item = Item.moved
            swap(&item, &items[index])
            switch consume item {
            case .event(let event, let time, let size):
                taken.events += 1
                taken.bytes += size
                if let reason = admit(event, at: time, into: &batch, violations: &violations) {
                    dropped[reason, default: 0] += 1
                } else {
                    forwarded += 1
                    outgoingBytes += size
                }
            case .call(let call, let time, let size):
                taken.events += size > 0 ? 1 : 0
                taken.bytes += size
                guard let event = perform(call, at: time, sends: size > 0) else { break }
                if let reason = admit(event.event, at: time, into: &batch, violations: &violations, as: event.envelope) {
                    dropped[reason, default: 0] += 1
                } else {
                    forwarded += 1
                    outgoingBytes += size
                }
            case .consent(let change):
                change.apply(to: &granted)
                lastCategory = nil
                persister.write(IdentityPatch(grantedConsent: granted))
            case .read(let reader):
                reader(currentIdentity)
            case .drain(let barrier, let shutsDown):
                writeSession(force: true)
                handOff(&batch, epoch: epoch)
                // Counted before any lane can end the drain, so `flush()` sees the counts.
                count(forwarded: &forwarded, violations: &violations, dropped: &dropped)
                if lanes.isEmpty { barrier.arrive() }
                for lane in lanes { lane.enqueueControl(.drain(barrier, shutsDown: shutsDown)) }
            case .moved:
                break
            }
        }
        handOff(&batch, epoch: epoch)
        count(forwarded: &forwarded, violations: &violations, dropped: &dropped)
        return taken
    }

    /// Adds what a pass counted to the service's metrics and starts the counts over.
    private func count(forwarded: inout Int, violations: inout Int, dropped: inout [DropReason: Int]) {
        guard forwarded > 0 || violations > 0 || !dropped.isEmpty else { return }
        counters.withLock { [forwarded, violations, dropped] metrics in
            metrics.forwarded += forwarded
            metrics.violations += violations
            for (reason, count) in dropped { metrics.dropped[reason, default: 0] += count }
        }
        forwarded = 0
        violations = 0
        dropped.removeAll()
    }

    /// Runs one event through the checks and stages and appends its envelope to
    /// `batch`; returns why it was dropped, if it was.
    private func admit(
        _ event: consuming AnalyticsEvent, at time: Date, into batch: inout [AnalyticsEnvelope], violations: inout Int,
        as kind: EnvelopeKind = .track
    ) -> DropReason? {
        let category = event.metadata.consent
        if category != lastCategory {
            lastCategory = category
            lastCategoryGranted = granted.contains(category)
        }
        guard lastCategoryGranted else { return .consent }

        if !event.metadata.constraints.isEmpty {
            let found = checker.violations(of: event)
            if !found.isEmpty {
                violations += 1
                if !apply(configuration.violationPolicy, to: found) { return .violation }
            }
        }

        if !globals.isEmpty && kind.carriesProperties { globals.add(to: &event) }
        let messageID = ids.next(at: time)
        if beforeStages.isEmpty {
            // Enriched as it is built, with no local envelope to change field by field.
            startSession(at: time)
            batch.append(AnalyticsEnvelope(
                event: event, messageID: messageID, timestamp: time, origin: origin(userID: kind.userID ?? userID),
                kind: kind.kind, callFields: kind.fields
            ))
        } else {
            // Before enrichment the envelope has no session, identity or context yet;
            // the shared empty context costs no allocation per event.
            var envelope = AnalyticsEnvelope(
                event: event, messageID: messageID, timestamp: time, origin: Self.emptyOrigin, kind: kind.kind,
                callFields: kind.fields)
            for stage in beforeStages where !stage.process(&envelope) { return .stage }
            startSession(at: time)
            envelope.origin = origin(userID: kind.userID ?? userID)
            batch.append(envelope)
        }
        if !enrichmentStages.isEmpty {
            let last = batch.count - 1
            for stage in enrichmentStages where !stage.process(&batch[last]) {
                batch.removeLast()
                return .stage
            }
        }
        return nil
    }

    /// The origin of an envelope made now: the last one while session and identifiers
    /// stay the same.
    private func origin(userID: String?) -> EnvelopeOrigin {
        if let lastOrigin, lastOrigin.matches(sessionID: sessionID, anonymousID: anonymousID, userID: userID) {
            return lastOrigin
        }
        let origin = EnvelopeOrigin(
            sessionID: sessionID, anonymousID: anonymousID, userID: userID, context: configuration.context)
        lastOrigin = origin
        return origin
    }

    /// Starts a new session when the last event is older than the session timeout, and
    /// writes the session to the store every few seconds.
    private func startSession(at time: Date) {
        if time.timeIntervalSince(lastEventTime) > sessionTimeout || sessionID == 0 {
            sessionID = Int64(time.timeIntervalSince1970 * 1000)
            sessionWritten = .distantPast
        }
        lastEventTime = max(lastEventTime, time)
        if lastEventTime.timeIntervalSince(sessionWritten) >= Self.sessionWriteInterval { writeSession(force: true) }
    }

    /// How often the session's last activity is written while events flow.
    static let sessionWriteInterval: TimeInterval = 5

    /// What an envelope carries before enrichment: no session, identity or context.
    private static let emptyOrigin = EnvelopeOrigin(
        sessionID: 0, anonymousID: "", userID: nil, context: AnalyticsContext())

    /// Reports violations as the policy says; returns whether the event goes on.
    func apply(_ policy: ViolationPolicy, to violations: [ConstraintViolation]) -> Bool {
        for violation in violations {
            configuration.errorHandler?(.constraintViolated(violation, policy: policy))
        }
        switch policy {
        case .assert:
            assertionFailure("Anna: \(violations.map(\.description).joined(separator: "; "))")
            log(violations)
            return true
        case .log:
            log(violations)
            return true
        case .drop:
            return false
        case .send:
            return true
        }
    }

    private func log(_ violations: [ConstraintViolation]) {
        for violation in violations {
            configuration.logger.warning("analytics event breaks its spec: \(violation)")
        }
    }

    /// Checks, in debug builds, that the caller runs on `queue`, which owns the
    /// pipeline's state: once per pass or call, not per event, so the speed stays.
    @inline(__always)
    func assertOnQueue() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }

    private func handOff(_ outgoing: inout [AnalyticsEnvelope], epoch: Int) {
        guard !outgoing.isEmpty else { return }
        // The lanes own the batch now; keeping its capacity here would allocate a
        // second buffer of that size at once and hold it while the pipeline idles.
        var batch: [AnalyticsEnvelope] = []
        swap(&batch, &outgoing)
        let bytes = outgoingBytes
        outgoingBytes = 0
        for lane in lanes { lane.enqueue(batch, bytes: bytes, epoch: epoch) }
    }
}
