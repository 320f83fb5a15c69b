import Dispatch
import Foundation
import Logging

/// The service's serial pipeline: consent, constraints, stages, enrichment, and
/// the hand-off to the provider lanes, and the loop that takes what `report` puts in
/// its intake (``Pipeline/startLoop()``). Its state is `queue`'s (``State``, behind
/// ``QueueBound``, which checks the queue in the storage); `intake` is behind its lock.
final class Pipeline: Sendable {
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
    /// ``sessionWriteInterval(timeout:)`` of the configured timeout.
    let sessionWriteInterval: TimeInterval
    let persister: IdentityPersister

    /// What `queue` owns: a pass takes it once (`state.withValue`), which checks the
    /// queue in debug builds, and then touches it per event with no further check.
    struct State {
        var granted: Set<ConsentCategory>
        var lastCategory: ConsentCategory?
        var lastCategoryGranted = false
        var anonymousID: String
        var userID: String?
        var traits = GlobalProperties()
        var globals = GlobalProperties()
        var sessionID: Int64 = 0
        /// The origin the last envelopes shared; replaced when the session or an identifier changes.
        var lastOrigin: EnvelopeOrigin?
        var lastEventTime: Date = .distantPast
        /// When the session was last written to the store; written at most every few seconds.
        var sessionWritten: Date = .distantPast
        var ids = MessageIDGenerator()
        var checker = ConstraintChecker()
        /// Estimated bytes of the envelopes `process` has gathered and not yet handed off.
        var outgoingBytes = 0
    }

    let state: QueueBound<State>

    init(
        configuration: AnalyticsService.Configuration, lanes: [ProviderLane], counters: LockedState<AnalyticsMetrics>,
        persister: IdentityPersister, intake: LockedState<Intake>, room: RoomSignal
    ) {
        self.intake = intake
        self.room = room
        self.configuration = configuration
        self.persister = persister
        self.state = QueueBound(
            State(granted: configuration.grantedConsent, anonymousID: configuration.anonymousID ?? ""), on: queue)

        self.lanes = lanes
        self.counters = counters
        self.beforeStages = configuration.stages.filter { $0.phase == .before }
        self.enrichmentStages = configuration.stages.filter { $0.phase == .enrichment }
        self.sessionTimeout = configuration.sessionTimeout.timeInterval
        self.sessionWriteInterval = Self.sessionWriteInterval(timeout: sessionTimeout)
    }

    /// Processes items in order, moving each out of `items` (which keeps its capacity
    /// for reuse, holding ``Item/moved``).
    /// - Returns: How many events it took, and their estimated bytes.
    func process(_ items: inout [Item], epoch: Int) -> (events: Int, bytes: Int) {
        state.withValue { process(&items, epoch: epoch, state: &$0) }
    }

    private func process(_ items: inout [Item], epoch: Int, state: inout State) -> (events: Int, bytes: Int) {
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
                if let reason = admit(event, at: time, into: &batch, violations: &violations, state: &state) {
                    dropped[reason, default: 0] += 1
                } else {
                    forwarded += 1
                    state.outgoingBytes += size
                }
            case .call(let call, let time, let size):
                taken.events += size > 0 ? 1 : 0
                taken.bytes += size
                guard let event = perform(call, at: time, sends: size > 0, state: &state) else { break }
                if let reason = admit(event.event, at: time, into: &batch, violations: &violations, as: event.envelope, state: &state) {
                    dropped[reason, default: 0] += 1
                } else {
                    forwarded += 1
                    state.outgoingBytes += size
                }
            case .consent(let change):
                change.apply(to: &state.granted)
                state.lastCategory = nil
                persister.write(IdentityPatch(grantedConsent: state.granted))
            case .read(let reader):
                reader(state.identity)
            case .drain(let barrier, let shutsDown):
                writeSession(force: true, state: &state)
                handOff(&batch, epoch: epoch, state: &state)
                // Counted before any lane can end the drain, so `flush()` sees the counts.
                count(forwarded: &forwarded, violations: &violations, dropped: &dropped)
                if lanes.isEmpty { barrier.arrive() }
                for lane in lanes { lane.enqueueControl(.drain(barrier, shutsDown: shutsDown)) }
            case .moved:
                break
            }
        }
        handOff(&batch, epoch: epoch, state: &state)
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
        as kind: EnvelopeKind = .track, state: inout State
    ) -> DropReason? {
        let category = event.metadata.consent
        if category != state.lastCategory {
            state.lastCategory = category
            state.lastCategoryGranted = state.granted.contains(category)
        }
        guard state.lastCategoryGranted else { return .consent }

        if !event.metadata.constraints.isEmpty {
            let found = state.checker.violations(of: event)
            if !found.isEmpty {
                violations += 1
                if !apply(configuration.violationPolicy, to: found) { return .violation }
            }
        }

        if !state.globals.isEmpty && kind.carriesProperties { state.globals.add(to: &event) }
        let messageID = state.ids.next(at: time)
        if beforeStages.isEmpty {
            // Enriched as it is built, with no local envelope to change field by field.
            startSession(at: time, state: &state)
            batch.append(AnalyticsEnvelope(
                event: event, messageID: messageID, timestamp: time, origin: origin(userID: kind.userID ?? state.userID, state: &state),
                kind: kind.kind, callFields: kind.fields
            ))
        } else {
            // Before enrichment the envelope has no session, identity or context yet;
            // the shared empty context costs no allocation per event.
            var envelope = AnalyticsEnvelope(
                event: event, messageID: messageID, timestamp: time, origin: Self.emptyOrigin, kind: kind.kind,
                callFields: kind.fields)
            for stage in beforeStages where !stage.process(&envelope) { return .stage }
            startSession(at: time, state: &state)
            envelope.origin = origin(userID: kind.userID ?? state.userID, state: &state)
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
    private func origin(userID: String?, state: inout State) -> EnvelopeOrigin {
        if let lastOrigin = state.lastOrigin,
            lastOrigin.matches(sessionID: state.sessionID, anonymousID: state.anonymousID, userID: userID) {
            return lastOrigin
        }
        let origin = EnvelopeOrigin(
            sessionID: state.sessionID, anonymousID: state.anonymousID, userID: userID, context: configuration.context)
        state.lastOrigin = origin
        return origin
    }

    /// Starts a new session when the last event is older than the session timeout, and
    /// writes the session to the store every few seconds.
    private func startSession(at time: Date, state: inout State) {
        if time.timeIntervalSince(state.lastEventTime) > sessionTimeout || state.sessionID == 0 {
            state.sessionID = Int64(time.timeIntervalSince1970 * 1000)
            state.sessionWritten = .distantPast
        }
        state.lastEventTime = max(state.lastEventTime, time)
        if state.lastEventTime.timeIntervalSince(state.sessionWritten) >= sessionWriteInterval { writeSession(force: true, state: &state) }
    }

    /// How often the session's last activity is written while events flow: a
    /// thirtieth of the session timeout, from 5 s to 60 s (60 s for the default 30
    /// minutes). A crash loses at most that much of the session's last activity; a
    /// flush, the move to the background and a shutdown write it at once. Each write
    /// is a file replaced and synced, so a trickle of events does not pay one every
    /// few events.
    static func sessionWriteInterval(timeout: TimeInterval) -> TimeInterval {
        min(60, max(5, timeout / 30))
    }

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

    private func handOff(_ outgoing: inout [AnalyticsEnvelope], epoch: Int, state: inout State) {
        guard !outgoing.isEmpty else { return }
        // The lanes own the batch now; keeping its capacity here would allocate a
        // second buffer of that size at once and hold it while the pipeline idles.
        var batch: [AnalyticsEnvelope] = []
        swap(&batch, &outgoing)
        let bytes = state.outgoingBytes
        state.outgoingBytes = 0
        for lane in lanes { lane.enqueue(batch, bytes: bytes, epoch: epoch) }
    }
}
