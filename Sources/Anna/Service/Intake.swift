/// What `report` touches, behind one short lock in ``AnalyticsService``: the items
/// waiting for the pipeline and the counts the service keeps about them.
///
/// Items wait in chunks of at most ``chunkSize``, oldest first: a burst that the
/// pipeline cannot take yet (it waits for the provider lanes, see ``LanePacing``)
/// costs one item per event, never an array's doubled capacity, and the pipeline
/// takes the oldest chunk without moving the others.
struct Intake {
    /// The most items in one chunk.
    static let chunkSize = 4_096

    /// Full chunks, oldest first; every item in them came before those in `items`.
    private var chunks: [[Pipeline.Item]] = []
    /// The chunk `report` appends to.
    private var items: [Pipeline.Item] = []
    /// An empty chunk with its capacity, handed back by the pipeline for reuse.
    private var spare: [Pipeline.Item] = []
    /// Whether the pipeline's loop runs or dozes: `report` then leaves the event for it.
    var isScheduled = false
    /// How the loop waits between looks at the intake, when it is scheduled and waits.
    var pause = Pause.none
    /// The current tick; a timer armed for an earlier one finds it changed and does nothing.
    var tick = 0
    /// Whether the pipeline waits for a lane to free room, with items left here.
    var waitsForLanes = false
    var isCollecting = true
    var isAccepting = true
    var epoch = 0
    var reported = 0
    var droppedOptOut = 0
    var droppedShutdown = 0
    var droppedOverflow = 0
    /// Overflow drops not yet given to the error handler; the pipeline reports them.
    var unreportedOverflow = 0
    /// Events reported and not yet handed to the lanes (in `items` or in the
    /// pipeline), and their estimated bytes: what ``AnalyticsService/Configuration/intakeLimit`` bounds.
    var heldEvents = 0
    var heldBytes = 0
    var grantedConsent: Set<ConsentCategory>
    /// Whether the stored identity was read.
    var isStarted = false
    /// Consent changes made before that, to replay over the stored choice.
    var earlyConsent: [ConsentChange] = []
    /// The app's own opt-out (`false`) or opt-in (`true`), which wins over the stored one.
    var collectingChoice: Bool?

    init(grantedConsent: Set<ConsentCategory>) {
        self.grantedConsent = grantedConsent
        items.reserveCapacity(Self.chunkSize)
        spare.reserveCapacity(Self.chunkSize)
    }

    /// Whether no item waits.
    var isEmpty: Bool { chunks.isEmpty && items.isEmpty }

    /// Appends an item, starting a new chunk when the current one is full.
    mutating func append(_ item: Pipeline.Item) {
        items.append(item)
        guard items.count >= Self.chunkSize else { return }
        var full = spare
        spare = []
        swap(&full, &items)
        chunks.append(full)
        if items.capacity < Self.chunkSize { items.reserveCapacity(Self.chunkSize) }
    }

    /// Puts items before every waiting one (the events of the launch).
    mutating func prepend(_ first: [Pipeline.Item]) {
        chunks.insert(first, at: 0)
    }

    /// Takes the oldest chunk out; empty when no item waits.
    mutating func takeChunk() -> [Pipeline.Item] {
        if !chunks.isEmpty { return chunks.removeFirst() }
        var taken = spare
        spare = []
        swap(&taken, &items)
        return taken
    }

    /// Keeps an emptied chunk (emptied outside the lock) for reuse, when it is no larger than a chunk.
    mutating func recycle(_ used: inout [Pipeline.Item]) {
        guard used.isEmpty, used.capacity <= 2 * Self.chunkSize, spare.capacity < Self.chunkSize else { return }
        swap(&spare, &used)
    }

    /// Drops the events and messages waiting in the intake, for an opt-out; calls
    /// stay, to change the state, but send nothing.
    mutating func withholdPending() {
        var withheld = (events: 0, bytes: 0)
        for index in chunks.indices { Self.withhold(&chunks[index], counting: &withheld) }
        chunks.removeAll { $0.isEmpty }
        Self.withhold(&items, counting: &withheld)
        heldEvents -= withheld.events
        heldBytes -= withheld.bytes
        droppedOptOut += withheld.events
    }

    private static func withhold(_ items: inout [Pipeline.Item], counting withheld: inout (events: Int, bytes: Int)) {
        for index in items.indices {
            switch items[index] {
            case .event(_, _, let size):
                withheld.events += 1
                withheld.bytes += size
                items[index] = .moved
            case .call(let call, let time, let size) where size > 0:
                withheld.events += 1
                withheld.bytes += size
                items[index] = .call(call, time, size: 0)
            default:
                break
            }
        }
        items.removeAll { if case .moved = $0 { return true } else { return false } }
    }

    /// Marks the pipeline scheduled; `true` when the caller must start it.
    mutating func schedule() -> Bool {
        if isScheduled { return false }
        isScheduled = true
        return true
    }

    /// ``schedule()``, and also `true` when the loop waits for its next look (which
    /// is cancelled): for items someone waits on, which should not wait for it.
    mutating func scheduleNow() -> Bool {
        if schedule() { return true }
        guard pause != .none else { return false }
        cancelPause()
        return true
    }

    /// What `report` and the other calls use: ``schedule()``, and also `true` (the tick
    /// cancelled) when the loop dozes while ``wakeBacklog`` items or more wait, so that
    /// a burst does not wait for the next tick: one wake then serves that many events.
    /// Never while the loop lingers (``Pause/lingering``): it looks again within 2 ms
    /// and then takes everything that came meanwhile in one chunk, which a wake per
    /// ``wakeBacklog`` events would cut into many small ones.
    mutating func scheduleForReport() -> Bool {
        if schedule() { return true }
        guard pause == .dozing && heldEvents >= Self.wakeBacklog else { return false }
        cancelPause()
        return true
    }

    private mutating func cancelPause() {
        pause = .none
        tick += 1
    }

    /// Events waiting that wake a dozing loop.
    static let wakeBacklog = 256

    /// How the scheduled loop waits (``Pipeline/drain(tick:)``).
    enum Pause {
        /// It runs, or waits for a lane (``LanePacing``).
        case none
        /// It looks again soon after a pass that found work; nothing wakes it early
        /// but an item someone waits on.
        case lingering
        /// It looks again at its next slow tick; a backlog or an item someone waits on
        /// wakes it early.
        case dozing
    }
}
