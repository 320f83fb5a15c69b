import Dispatch
import Foundation

/// The pipeline's loop: it starts when `report` finds it idle, takes the intake a
/// chunk at a time, lingers before it goes idle, and paces itself on the lanes.
/// Everything here runs on `queue`.
extension Pipeline {
    /// The first work of `queue`: reads the stored identity and applies it under what
    /// the app did meanwhile: consent changes replay over the stored choice, an opt-out
    /// or opt-in made before wins over the stored one, and a stored opt-out withholds
    /// what was reported.
    func launch() {
        assertOnQueue()
        let launch = start(now: Date())
        let stored = launch.identity
        let wake = intake.withLock { intake -> Bool in
            var granted = launch.grantedConsent
            for change in intake.earlyConsent { change.apply(to: &granted) }
            intake.grantedConsent = granted
            intake.earlyConsent = []
            intake.isStarted = true
            if intake.collectingChoice == nil && stored.isOptedOut {
                intake.isCollecting = false
                intake.withholdPending()
            }
            // Inserted first even when `shutdown()` was called meanwhile: the launch came before it.
            guard intake.isCollecting && !launch.events.isEmpty else { return false }
            let now = Date()
            let items = launch.events.map { Item.event($0, now, size: $0.approximateByteCount) }
            intake.prepend(items)
            intake.reported += items.count
            intake.heldEvents += items.count
            intake.heldBytes += launch.events.reduce(0) { $0 + $1.approximateByteCount }
            return intake.schedule()
        }
        if wake { schedule() }
    }

    /// Starts the loop; called by whoever found it idle (`Intake.schedule()` said so).
    func schedule() {
        queue.async { [self] in drain(lingered: false) }
    }

    /// A lane or the intake freed room: wakes the loop if it waits for a lane.
    func lanesFreedRoom() {
        let wake = intake.withLock { intake -> Bool in
            guard intake.waitsForLanes else { return false }
            intake.waitsForLanes = false
            return true
        }
        if wake { schedule() }
    }

    /// Processes what was reported, a chunk at a time, until the intake is empty,
    /// then lingers for ``Pipeline/linger`` before it goes idle: while events keep
    /// coming, `report` finds the pipeline scheduled and never pays for waking a
    /// thread. While a lane is full of work (``LanePacing``) it leaves the rest in the
    /// intake, where an event costs least, and goes on when a lane frees room.
    func drain(lingered: Bool) {
        assertOnQueue()
        var lingered = lingered
        while true {
            let pacing = lanesArePacing()
            let (items, epoch, overflow, waits) = intake.withLock { intake -> ([Item], Int, Int, Bool) in
                let overflow = intake.unreportedOverflow
                intake.unreportedOverflow = 0
                guard !intake.isEmpty else {
                    if lingered { intake.isScheduled = false }
                    return ([], intake.epoch, overflow, false)
                }
                if pacing {
                    intake.waitsForLanes = true
                    return ([], intake.epoch, overflow, true)
                }
                return (intake.takeChunk(), intake.epoch, overflow, false)
            }
            if overflow > 0 { configuration.errorHandler?(.intakeOverflow(events: overflow)) }
            if items.isEmpty {
                if waits {
                    if waitForLanes() { continue }
                } else if !lingered {
                    queue.asyncAfter(deadline: .now() + Self.linger) { [self] in drain(lingered: true) }
                }
                return
            }
            lingered = false
            var used = items
            // The events are in the lanes now, which count them: the intake has room again.
            let (events, bytes) = process(&used, epoch: epoch)
            used.removeAll(keepingCapacity: true)
            intake.withLock { intake in
                intake.heldEvents -= events
                intake.heldBytes -= bytes
                intake.recycle(&used)
            }
            room.signal()
        }
    }

    /// Whether the lanes hold the pipeline back: every one of them is full of work
    /// and progressing (``LanePacing``).
    private func lanesArePacing() -> Bool {
        guard !lanes.isEmpty else { return false }
        let now = DispatchTime.now().uptimeNanoseconds
        let patience = configuration.lanePatience
        return lanes.allSatisfy { $0.isPacing(now: now, patience: patience) }
    }

    /// Called after the loop left items in the intake for a lane: `true` when the
    /// lanes freed room meanwhile, so it goes on at once. Otherwise a lane's signal
    /// (``lanesFreedRoom()``) wakes it, or, when no lane progresses, the patience
    /// timer, after which the stalled lane no longer paces.
    private func waitForLanes() -> Bool {
        if !lanesArePacing() {
            intake.withLock { $0.waitsForLanes = false }
            return true
        }
        guard !isPacingTimerArmed else { return false }
        isPacingTimerArmed = true
        let patience = DispatchTimeInterval.nanoseconds(Int(clamping: configuration.lanePatience))
        queue.asyncAfter(deadline: .now() + patience) { [self] in
            isPacingTimerArmed = false
            intake.withLock { $0.waitsForLanes = false }
            drain(lingered: false)
        }
        return false
    }
}
