/// The items waiting in the ``Intake``, in chunks of at most ``chunkSize``, oldest
/// first: a burst that the pipeline cannot take yet (it waits for the provider
/// lanes, see ``LanePacing``) costs one item per event, never an array's doubled
/// capacity, and the pipeline takes the oldest chunk without moving the others.
struct IntakeBuffer {
    /// The most items in one chunk.
    static let chunkSize = 4_096

    /// Full chunks, oldest first; every item in them came before those in `items`.
    private var chunks: [[Pipeline.Item]] = []
    /// The chunk new items go to.
    private var items: [Pipeline.Item] = []
    /// An empty chunk with its capacity, handed back by the pipeline for reuse.
    private var spare: [Pipeline.Item] = []

    init() {
        items.reserveCapacity(Self.chunkSize)
        spare.reserveCapacity(Self.chunkSize)
    }

    /// Whether no item waits.
    var isEmpty: Bool { chunks.isEmpty && items.isEmpty }

    /// How many items the chunk new items go to holds before it grows.
    var chunkCapacity: Int { items.capacity }

    /// How many items wait.
    var count: Int { chunks.reduce(items.count) { $0 + $1.count } }

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

    /// Removes the events and empties the messages of the calls, for an opt-out: calls
    /// stay, to change the state, but send nothing.
    /// - Returns: How many events and messages it withheld, and their estimated bytes.
    mutating func withholdMessages() -> (events: Int, bytes: Int) {
        var withheld = (events: 0, bytes: 0)
        for index in chunks.indices { Self.withhold(&chunks[index], counting: &withheld) }
        chunks.removeAll { $0.isEmpty }
        Self.withhold(&items, counting: &withheld)
        return withheld
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
}
