import Foundation

/// What `report` touches, behind one short lock in ``AnalyticsService``: the items
/// waiting for the pipeline, the counts the service keeps about them, consent and
/// opt-out as the callers see them, and whether the pipeline's loop must be woken.
///
/// A state machine: its state is private, and each input returns what the caller
/// does next (wake the loop, wait for room, process a chunk, park), so tests drive it
/// through every order of inputs without threads or time.
///
/// The loop (``Pipeline/run()``) runs on a thread of its own that parks when there is
/// nothing to do. Only the first item after it parked wakes it (``Wake/signal``); so
/// do an item someone waits on while it lingers, and a lane freeing room while it
/// waits for the lanes. After a pass that found work it lingers (``Pipeline/lingerInterval``)
/// so that events that keep coming find it awake; then it parks, and an idle service
/// wakes nothing, with no timer. It lingers only while events come faster than
/// ``lingerHorizon``: woken after a longer park (an app's usual trickle), it parks
/// again at once, since a linger would only cost one more wake of its thread.
struct Intake {
    /// The most items in one chunk the pipeline takes.
    static let chunkSize = IntakeBuffer.chunkSize

    /// What the pipeline's loop does, as far as the intake knows.
    enum Loop: Equatable {
        /// It reads the stored identity before its first look; items wait.
        case launching
        /// It looks at the intake or processes what it took; nothing wakes it.
        case running
        /// It waits ``Pipeline/lingerInterval`` after a pass that found work; only an
        /// item someone waits on wakes it early.
        case lingering
        /// It waits for a lane to free room (``LanePacing``) or for the lanes' patience.
        case waitingForLanes
        /// It waits for the next item, with no timer.
        case parked
    }

    /// Whether the caller of an input wakes the loop's thread.
    enum Wake: Equatable {
        case none, signal
    }

    /// What became of a message (an event, or a call that sends one).
    enum Admission: Equatable {
        /// In the intake; the caller wakes the loop when it says so.
        case taken(Wake)
        /// Counted as reported and dropped, for this reason.
        case dropped(DropReason)
        /// Not taken, not counted: the intake is full and the caller waits for room.
        case full
    }

    /// What the loop does after a look at the intake.
    enum Next {
        /// Processes these items, taken in this opt-out epoch.
        case process([Pipeline.Item], epoch: Int)
        /// Waits ``Pipeline/lingerInterval``, or less when woken.
        case linger
        /// Waits for a lane to free room, at most the lanes' patience.
        case waitForLanes
        /// Waits until woken.
        case park
        /// Ends: the service is gone and every item was processed.
        case exit

        /// Moves the items out of a ``process(_:epoch:)`` step, which keeps its epoch and
        /// no items: the caller then holds the chunk's only reference and can empty it in
        /// place for reuse (``Intake/processed(events:bytes:used:)``). Empty for any other step.
        mutating func takeItems() -> [Pipeline.Item] {
            guard case .process(let items, let epoch) = self else { return [] }
            self = .process([], epoch: epoch)
            return items
        }
    }

    /// How many items the chunk that `report` appends to holds before it grows.
    var chunkCapacity: Int { buffer.chunkCapacity }

    /// The counts of what callers reported and what the intake dropped.
    struct Counts: Equatable {
        var reported = 0
        var droppedOptOut = 0
        var droppedShutdown = 0
        var droppedOverflow = 0
    }

    private var buffer = IntakeBuffer()
    private let limit: MemoryLimit
    private(set) var loop = Loop.launching
    /// Whether the last look took items: the next empty look lingers instead of parking.
    private var tookWork = false
    /// When the loop last parked (uptime nanoseconds, the looks' `now`).
    private var parkedAt: UInt64 = 0
    /// Whether the loop lingers after work: it came back from its last park within
    /// ``lingerHorizon``, so the next item is likely to come within a linger.
    private var lingers = true
    private(set) var counts = Counts()
    /// Overflow drops not yet given to the error handler; the loop reports them.
    private var unreportedOverflow = 0
    /// Events (and calls that send a message) reported and not yet handed to the
    /// lanes, here or in the pipeline, and their estimated bytes: what `limit` bounds.
    private(set) var heldEvents = 0
    private(set) var heldBytes = 0
    private var isCollecting = true
    private var isAccepting = true
    /// Whether the service is gone: the loop ends once it processed what is left.
    private var isClosed = false
    /// The opt-out epoch: a lane drops batches taken before the last opt-out.
    private(set) var epoch = 0
    /// The consent granted, as callers see it.
    private(set) var grantedConsent: Set<ConsentCategory>
    /// Whether the stored identity was read.
    private var isStarted = false
    /// Consent changes made before that, to replay over the stored choice.
    private var earlyConsent: [ConsentChange] = []
    /// The app's own opt-out (`false`) or opt-in (`true`), which wins over the stored one.
    private var collectingChoice: Bool?

    init(grantedConsent: Set<ConsentCategory>, limit: MemoryLimit) {
        self.grantedConsent = grantedConsent
        self.limit = limit
    }

    /// Whether the user opted out, as callers see it.
    var isOptedOut: Bool { !isCollecting }

    /// How many items wait, for tests.
    var waitingItems: Int { buffer.count }

    // MARK: Inputs from the callers

    /// An event was reported.
    /// - Parameter dropsWhenFull: `false` for ``AnalyticsService/reportWaitingForRoom(_:)``,
    ///   which waits rather than drop when the intake is full.
    mutating func reported(_ event: AnalyticsEvent, at time: Date, size: Int, dropsWhenFull: Bool = true) -> Admission {
        let admission = admit(size: size, dropsWhenFull: dropsWhenFull)
        if case .taken = admission { buffer.append(.event(event, time, size: size)) }
        return admission
    }

    /// A call other than `report` was made. One that sends a message is admitted as an
    /// event is; its change of state is kept even when its message is dropped (opted
    /// out, intake full), and only a shutdown drops it whole.
    mutating func called(_ call: Pipeline.Call, at time: Date, messageSize: Int) -> Wake {
        guard call.sendsMessage else {
            guard isAccepting else { return .none }
            buffer.append(.call(call, time, size: 0))
            return wake(urgently: false)
        }
        switch admit(size: messageSize, dropsWhenFull: true) {
        case .taken(let wake):
            buffer.append(.call(call, time, size: messageSize))
            return wake
        case .dropped(.shutdown), .full:
            return .none
        case .dropped:
            buffer.append(.call(call, time, size: 0))
            return wake(urgently: false)
        }
    }

    /// Consent changed: applied at once for callers, and queued for the pipeline.
    mutating func consentChanged(_ change: ConsentChange) -> Wake {
        change.apply(to: &grantedConsent)
        if !isStarted { earlyConsent.append(change) }
        buffer.append(.consent(change))
        return wake(urgently: false)
    }

    /// An item someone waits on (a flush, a shutdown, a read of the identity): it cuts
    /// a linger short.
    mutating func controlled(_ item: Pipeline.Item) -> Wake {
        buffer.append(item)
        return wake(urgently: true)
    }

    /// The user opted out: what waits here is withheld, and lanes drop what they took before.
    /// - Returns: The new opt-out epoch.
    mutating func optedOut() -> Int {
        isCollecting = false
        collectingChoice = false
        epoch += 1
        withholdMessages()
        return epoch
    }

    /// The user opted back in.
    mutating func optedIn() {
        isCollecting = true
        collectingChoice = true
    }

    /// The service shuts down: messages reported from now on are dropped.
    mutating func shutDown() {
        isAccepting = false
    }

    /// The service is gone: the loop processes what is left, then ends.
    mutating func closed() -> Wake {
        isClosed = true
        return wake(urgently: true)
    }

    // MARK: Inputs from the loop

    /// The loop read the stored identity: consent changes made meanwhile replay over the
    /// stored choice, an opt-out or opt-in made meanwhile wins over the stored one, a
    /// stored opt-out withholds what was reported, and the launch's events go first.
    mutating func launched(grantedConsent launchConsent: Set<ConsentCategory>, storedOptOut: Bool, events: [AnalyticsEvent], at time: Date) {
        var granted = launchConsent
        for change in earlyConsent { change.apply(to: &granted) }
        grantedConsent = granted
        earlyConsent = []
        isStarted = true
        loop = .running
        if collectingChoice == nil && storedOptOut {
            isCollecting = false
            withholdMessages()
        }
        // Inserted first even when the service shut down meanwhile: the launch came before it.
        guard isCollecting && !events.isEmpty else { return }
        let items = events.map { Pipeline.Item.event($0, time, size: $0.approximateByteCount) }
        for case .event(_, _, let size) in items { hold(size: size) }
        buffer.prepend(items)
    }

    /// A park longer than this ends the lingering: events come less often than about
    /// every 10 ms, and a linger of ``Pipeline/lingerInterval`` would rarely find one.
    static let lingerHorizon: UInt64 = 10_000_000

    /// The loop looks for work.
    /// - Parameters:
    ///   - pacing: Whether every lane is full of work and progressing (``LanePacing``).
    ///   - now: Uptime in nanoseconds (`DispatchTime`'s), which only the linger reads.
    mutating func looked(pacing: Bool, now: UInt64 = 0) -> Next {
        if parkedAt > 0 {
            // The first look after a park: how long it parked says whether to linger.
            lingers = now < parkedAt || now - parkedAt < Self.lingerHorizon
            parkedAt = 0
        }
        guard !buffer.isEmpty else {
            if isClosed { return .exit }
            if tookWork && lingers {
                tookWork = false
                loop = .lingering
                return .linger
            }
            tookWork = false
            loop = .parked
            parkedAt = max(now, 1)
            return .park
        }
        if pacing {
            loop = .waitingForLanes
            return .waitForLanes
        }
        loop = .running
        tookWork = true
        return .process(buffer.takeChunk(), epoch: epoch)
    }

    /// The loop handed what it took to the lanes: `events` and `bytes` no longer count
    /// against the limit; `used` is the emptied chunk, kept for reuse.
    mutating func processed(events: Int, bytes: Int, used: inout [Pipeline.Item]) {
        heldEvents -= events
        heldBytes -= bytes
        buffer.recycle(&used)
    }

    /// Overflow drops not yet given to the error handler; none from now on.
    mutating func takeUnreportedOverflow() -> Int {
        defer { unreportedOverflow = 0 }
        return unreportedOverflow
    }

    /// A lane freed room, or the loop found the lanes no longer pacing: a loop waiting
    /// for them goes on.
    mutating func lanesFreedRoom() -> Wake {
        guard loop == .waitingForLanes else { return .none }
        loop = .running
        return .signal
    }

    // MARK: Steps

    /// Admission of a message of `size` bytes, counted in one place.
    private mutating func admit(size: Int, dropsWhenFull: Bool) -> Admission {
        guard isAccepting else { return drop(.shutdown) }
        guard isCollecting else { return drop(.optOut) }
        guard limit.admits(events: 1, bytes: size, holding: heldEvents, heldBytes) else {
            guard dropsWhenFull else { return .full }
            unreportedOverflow += 1
            return drop(.overflow)
        }
        hold(size: size)
        return .taken(wake(urgently: false))
    }

    private mutating func hold(size: Int) {
        counts.reported += 1
        heldEvents += 1
        heldBytes += size
    }

    private mutating func drop(_ reason: DropReason) -> Admission {
        counts.reported += 1
        switch reason {
        case .shutdown: counts.droppedShutdown += 1
        case .overflow: counts.droppedOverflow += 1
        default: counts.droppedOptOut += 1
        }
        return .dropped(reason)
    }

    private mutating func withholdMessages() {
        let withheld = buffer.withholdMessages()
        heldEvents -= withheld.events
        heldBytes -= withheld.bytes
        counts.droppedOptOut += withheld.events
    }

    /// Whether a new item wakes the loop: a parked one always; a lingering one only for
    /// an item someone waits on, as it looks again within ``Pipeline/lingerInterval``
    /// and then takes everything that came meanwhile in one chunk.
    private mutating func wake(urgently: Bool) -> Wake {
        switch loop {
        case .parked:
            loop = .running
            return .signal
        case .lingering where urgently:
            loop = .running
            return .signal
        case .launching, .running, .lingering, .waitingForLanes:
            return .none
        }
    }
}
