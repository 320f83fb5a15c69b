import Dispatch
import Foundation

/// One provider's serial lane: its queue of batches and control items, run by a
/// task on a dispatch queue of its own, so that a provider that blocks its thread
/// blocks only its lane.
///
/// `state` is behind its lock (the pipeline enqueues, the lane's task takes);
/// `naming` belongs to the lane's task, which runs one batch at a time.
/// What the lane holds, queued or being delivered, is bounded by `limit`.
// @unchecked: `state` is behind its lock; `naming` is touched only by the lane's one
// running task (checked in debug builds, `prepare`); every other stored property is a `let`.
final class ProviderLane: @unchecked Sendable {
    enum Item {
        /// Events and their estimated bytes.
        case batch([AnalyticsEnvelope], bytes: Int)
        case drain(Barrier, shutsDown: Bool)
        /// Deletes what the provider holds, then lets the barrier's waiter know.
        case purge(Barrier)
        /// Suspends or resumes the provider, after what it was handed before.
        case transition(Transition, Barrier)
    }

    /// What the app's lifecycle asks of a provider.
    enum Transition: Sendable {
        case suspend, resume
    }

    private struct State {
        var items: [Item] = []
        var isRunning = false
        var purgedEpoch = 0
        /// Events (and estimated bytes) queued or being delivered.
        var heldEvents = 0
        var heldBytes = 0
        /// When the lane's task last started or finished a call to the provider
        /// (uptime nanoseconds): whether it paces the pipeline (``LanePacing``).
        var lastProgress: UInt64 = 0
    }

    let provider: any AnalyticsProvider
    let name: String
    private let options: ProviderOptions
    private let state = LockedState(State())
    private let counters: LockedState<AnalyticsMetrics>
    private let errorHandler: (@Sendable (AnalyticsError) -> Void)?
    private let queue: DispatchQueue
    /// Runs the lane's task on `queue` where the system allows.
    private let starter: OffPoolStarter
    private let limit: MemoryLimit
    private let room: RoomSignal

    // Used only by the lane's task, one batch at a time.
    private var naming: LaneNaming
    /// Whether `naming` has anything to do: the provider has a mapper or a profile.
    private let isNaming: Bool
    /// Whether the provider takes every kind of envelope, so none needs converting.
    private let receivesAllKinds: Bool
    /// The kinds it takes, one bit per kind: cheaper per envelope than a set's hashing.
    private let receivedKindBits: UInt8

    init(
        provider: any AnalyticsProvider,
        index: Int,
        limit: MemoryLimit,
        room: RoomSignal,
        counters: LockedState<AnalyticsMetrics>,
        errorHandler: (@Sendable (AnalyticsError) -> Void)?
    ) {
        self.provider = provider
        self.name = provider.name
        let options = provider.options
        self.options = options
        self.naming = LaneNaming(mapper: options.mapper, profile: options.profile)
        self.isNaming = naming.isActive
        self.receivesAllKinds = options.receivedKinds.isSuperset(of: AnalyticsEnvelope.Kind.allCases)
        self.receivedKindBits = options.receivedKinds.reduce(0) { $0 | $1.bit }
        self.counters = counters
        self.errorHandler = errorHandler
        self.limit = limit
        self.room = room
        let queue = DispatchQueue(label: "anna.provider.\(index).\(provider.name)")
        self.queue = queue
        starter = OffPoolStarter(queue: queue)
    }

    /// Queues a batch, unless the user opted out after the pipeline took it. What does
    /// not fit beside what the lane holds is dropped for this provider, newest first.
    func enqueue(_ batch: [AnalyticsEnvelope], bytes: Int, epoch: Int) {
        let outcome = state.withLock { state -> (kept: Int, start: Bool) in
            guard epoch >= state.purgedEpoch else { return (-1, false) }
            let kept = Self.fitting(batch.count, bytes: bytes, in: limit, beside: state)
            guard kept > 0 else { return (0, false) }
            let keptBytes = kept == batch.count ? bytes : bytes / batch.count * kept
            state.items.append(.batch(kept == batch.count ? batch : Array(batch.prefix(kept)), bytes: keptBytes))
            state.heldEvents += kept
            state.heldBytes += keptBytes
            return (kept, Self.markRunning(&state))
        }
        if outcome.kept < 0 {
            counters.withLock { $0.dropped[.optOut, default: 0] += batch.count }
        } else if outcome.kept < batch.count {
            let dropped = batch.count - outcome.kept
            counters.withLock { $0.overflowed[name, default: 0] += dropped }
            errorHandler?(.providerOverflow(provider: name, events: dropped))
        }
        if outcome.start { startTask() }
    }

    /// How many of `count` events of `bytes` fit beside what the lane holds.
    private static func fitting(_ count: Int, bytes: Int, in limit: MemoryLimit, beside state: State) -> Int {
        if limit.admits(events: count, bytes: bytes, holding: state.heldEvents, state.heldBytes) { return count }
        let average = max(bytes / max(count, 1), 1)
        let room = min(limit.events - state.heldEvents, (limit.bytes - state.heldBytes) / average)
        // An empty lane always takes one event, however large.
        return min(count, max(room, state.heldEvents == 0 ? 1 : 0))
    }

    /// Whether the lane could take `events` more events of `bytes` now.
    func hasRoom(forEvents events: Int, bytes: Int) -> Bool {
        state.withLock { limit.admits(events: events, bytes: bytes, holding: $0.heldEvents, $0.heldBytes) }
    }

    func enqueueControl(_ item: Item) {
        if state.withLock({ state -> Bool in
            state.items.append(item)
            return Self.markRunning(&state)
        }) {
            startTask()
        }
    }

    /// Deletes queued batches at once, then, after what the provider is receiving now,
    /// asks the provider to delete what it holds; the barrier learns when it has.
    func purge(epoch: Int, then barrier: Barrier) {
        let purged = state.withLock { state -> Int in
            state.purgedEpoch = max(state.purgedEpoch, epoch)
            var count = 0
            state.items.removeAll { item in
                guard case .batch(let batch, let bytes) = item else { return false }
                count += batch.count
                state.heldEvents -= batch.count
                state.heldBytes -= bytes
                return true
            }
            return count
        }
        counters.withLock { $0.dropped[.optOut, default: 0] += purged }
        room.signal()
        enqueueControl(.purge(barrier))
    }

    private static func markRunning(_ state: inout State) -> Bool {
        if state.isRunning { return false }
        state.isRunning = true
        state.lastProgress = DispatchTime.now().uptimeNanoseconds
        return true
    }

    /// Whether this lane is full of work and progressing: the pipeline waits while every lane is.
    func isPacing(now: UInt64, patience: UInt64) -> Bool {
        state.withLock {
            LanePacing.paces(heldEvents: $0.heldEvents, lastProgress: $0.lastProgress, now: now, patience: patience)
        }
    }

    /// Records a finished call to the provider, and releases what it delivered.
    private func progressed(delivered events: Int = 0, bytes: Int = 0) {
        state.withLock { state in
            state.heldEvents -= events
            state.heldBytes -= bytes
            state.lastProgress = DispatchTime.now().uptimeNanoseconds
        }
        if events > 0 { room.signal() }
    }

    private func startTask() {
        starter.start { await self.run() }
    }

    /// The most events handed to the provider in one `receive`, when the lane joins
    /// consecutive batches: a burst is joined (copied) a part at a time, and each part
    /// is released once delivered, not when the whole burst is.
    static let deliveryChunk = 2_000

    private func run() async {
        while true {
            var items = state.withLock { state -> [Item] in
                if state.items.isEmpty { state.isRunning = false }
                let items = state.items
                state.items = []
                return items
            }
            if items.isEmpty { return }
            // Consecutive batches go out as one; they are kept as the pipeline handed
            // them (shared with the other lanes) until then, not copied into one.
            var pending: [(batch: [AnalyticsEnvelope], bytes: Int)] = []
            for index in items.indices {
                // Moved out, so that a batch's memory goes once it is delivered.
                let item = items[index]
                items[index] = .batch([], bytes: 0)
                switch item {
                case .batch(let batch, let bytes):
                    pending.append((batch, bytes))
                case .drain(let barrier, let shutsDown):
                    await deliver(&pending)
                    do { try await provider.flush() } catch { report(error, batch: []) }
                    if shutsDown { await provider.shutdown() }
                    progressed()
                    barrier.arrive()
                case .purge(let barrier):
                    let purged = pending.reduce(into: (events: 0, bytes: 0)) { $0.events += $1.batch.count; $0.bytes += $1.bytes }
                    pending.removeAll()
                    progressed(delivered: purged.events, bytes: purged.bytes)
                    await provider.purge()
                    progressed()
                    barrier.arrive()
                case .transition(let transition, let barrier):
                    await deliver(&pending)
                    switch transition {
                    case .suspend: await provider.suspend()
                    case .resume: await provider.resume()
                    }
                    progressed()
                    barrier.arrive()
                }
            }
            await deliver(&pending)
        }
    }

    /// Hands the pending batches to the provider, joined up to ``deliveryChunk``
    /// events per call, each part released (and its room given back) once delivered.
    private func deliver(_ pending: inout [(batch: [AnalyticsEnvelope], bytes: Int)]) async {
        var start = 0
        while start < pending.count {
            var end = start + 1
            var count = pending[start].batch.count
            var bytes = pending[start].bytes
            while end < pending.count && count + pending[end].batch.count <= Self.deliveryChunk {
                count += pending[end].batch.count
                bytes += pending[end].bytes
                end += 1
            }
            let part = pending[start..<end].map(\.batch)
            for index in start..<end { pending[index] = ([], 0) }
            await deliverPart(part)
            progressed(delivered: count, bytes: bytes)
            start = end
        }
        pending.removeAll()
    }

    private func deliverPart(_ batches: [[AnalyticsEnvelope]]) async {
        var limited = 0
        let batch = prepare(batches, limited: &limited)
        do {
            if !batch.isEmpty { try await provider.receive(batch) }
            counters.withLock { metrics in
                metrics.delivered[name, default: 0] += batch.count
                if limited > 0 { metrics.limited[name, default: 0] += limited }
            }
        } catch {
            counters.withLock { metrics in
                metrics.failed[name, default: 0] += batch.count
                if limited > 0 { metrics.limited[name, default: 0] += limited }
            }
            report(error, batch: batch)
        }
    }

    private func report(_ error: any Error, batch: [AnalyticsEnvelope]) {
        errorHandler?(.providerFailed(provider: name, batch: batch, error: error))
    }

    /// The batches as one, with the provider's PII rule, names and profile applied.
    /// A lone batch that needs none of them is passed on as it is.
    private func prepare(_ batches: [[AnalyticsEnvelope]], limited: inout Int) -> [AnalyticsEnvelope] {
        let needsPII = !options.receivesPII && batches.contains { batch in
            batch.contains { !$0.event.metadata.piiKeys.isEmpty }
        }
        let bits = receivedKindBits
        let needsKinds = !receivesAllKinds && batches.contains { batch in
            batch.contains { bits & $0.kind.bit == 0 }
        }
        guard needsPII || isNaming || needsKinds else {
            if batches.count == 1 { return batches[0] }
            return Array(batches.joined())
        }
        // `naming` belongs to the lane's one running task (`markRunning` lets one start),
        // which runs on the lane's queue wherever a task can prefer an executor.
        #if DEBUG
        if starter.runsOnTheQueue {
            dispatchPrecondition(condition: .onQueue(queue))
        } else {
            assert(state.withLock { $0.isRunning }, "a lane's naming state touched outside its task")
        }
        #endif
        // Moved out of the lane for the loop, so each event does not go through the class's access checks.
        var naming = LaneNaming(mapper: nil, profile: nil)
        swap(&naming, &self.naming)
        defer { swap(&naming, &self.naming) }
        var prepared: [AnalyticsEnvelope] = []
        prepared.reserveCapacity(batches.reduce(0) { $0 + $1.count })
        var violations: [ProfileViolation] = []
        for batch in batches {
            for index in batch.indices {
                // Copied once, into place, and changed there: the other lanes share `batch`.
                if needsKinds && bits & batch[index].kind.bit == 0 {
                    guard let converted = Self.converted(batch[index], for: options.receivedKinds) else { continue }
                    prepared.append(converted)
                } else {
                    prepared.append(batch[index])
                }
                let last = prepared.count - 1
                if needsPII && !prepared[last].event.metadata.piiKeys.isEmpty {
                    Self.strip(&prepared[last].event, handling: options.piiHandling)
                }
                if isNaming {
                    violations.removeAll(keepingCapacity: true)
                    // identify, group and alias have no event name: their traits are mapped and
                    // checked under the call's name, which is not sent.
                    let kind = prepared[last].kind
                    let isNameless = kind == .identify || kind == .group || kind == .alias
                    if isNameless { prepared[last].event.name = kind.rawValue }
                    let keep = naming.prepare(&prepared[last].event, violations: &violations)
                    if isNameless { prepared[last].event.name = "" }
                    for violation in violations { errorHandler?(.providerLimit(provider: name, violation)) }
                    // Counted once per event, however many limits it broke; a dropped event broke one.
                    if !violations.isEmpty { limited += 1 }
                    if !keep { prepared.removeLast() }
                }
            }
        }
        return prepared
    }
}

extension ProviderLane {
    /// An envelope of a kind the provider does not take, as one it takes: a screen as a
    /// `Screen Viewed` track event with the screen's name in `name`; `nil` (not sent)
    /// for the others.
    static func converted(_ envelope: AnalyticsEnvelope, for kinds: Set<AnalyticsEnvelope.Kind>) -> AnalyticsEnvelope? {
        guard envelope.kind == .screen, kinds.contains(.track) else { return nil }
        var converted = envelope
        converted.kind = .track
        converted.event.name = "Screen Viewed"
        converted.event.parameters["name"] = .string(envelope.event.name)
        return converted
    }
}

extension AnalyticsEnvelope.Kind {
    /// The kind's bit in a lane's mask of received kinds.
    var bit: UInt8 {
        switch self {
        case .track: 1
        case .screen: 2
        case .identify: 4
        case .group: 8
        case .alias: 16
        }
    }
}
