import Dispatch
import Foundation

/// The pipeline's loop: it starts when `report` finds it idle, takes the intake a
/// chunk at a time, dozes on a timer before it goes idle, and paces itself on the lanes.
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
        queue.async { [self] in drain(tick: nil) }
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
    /// then dozes: it looks at the intake again ``lingerInterval`` (2 ms) after a pass
    /// that found work, so events that keep coming find it awake and go on at once,
    /// and every ``tickInterval`` (40 ms) after one that found none, until
    /// ``dozeLimit`` (1 s) has passed without work; only then does it go idle. While it
    /// dozes, `report` finds it scheduled and returns without waking a thread, which
    /// at an app's usual rates (a few events a second) is what `report` would
    /// otherwise cost most; an event then waits at most one tick, inside the durable
    /// delivery window. Items someone waits on (a flush, a read) cancel the wait and
    /// run at once (`Intake.scheduleNow()`); a backlog of `Intake.wakeBacklog` events
    /// cancels a slow tick, never the 2 ms linger, which then takes a burst in one
    /// chunk rather than in many small ones. An idle service wakes nothing. While a
    /// lane is full of work (``LanePacing``) the loop leaves the rest in the intake,
    /// where an event costs least, and goes on when a lane frees room.
    /// - Parameter tick: The tick a timer ran it for; `nil` when it was woken.
    func drain(tick: Int?) {
        assertOnQueue()
        var passes = 0
        var didWork = false
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let pacing = lanesArePacing()
            let idleFor = now >= lastWorkAt ? now - lastWorkAt : 0
            let (items, epoch, overflow, next) = intake.withLock { intake -> ([Item], Int, Int, Next) in
                // A timer for a tick that was cancelled or replaced does nothing.
                if let tick, passes == 0, !(intake.pause != .none && intake.tick == tick) { return ([], 0, 0, .stop) }
                intake.pause = .none
                let overflow = intake.unreportedOverflow
                intake.unreportedOverflow = 0
                guard !intake.isEmpty else {
                    if idleFor >= Self.dozeLimit {
                        intake.isScheduled = false
                        return ([], intake.epoch, overflow, .stop)
                    }
                    // Soon after work, as events that keep coming find the loop awake; then slower.
                    intake.pause = didWork ? .lingering : .dozing
                    intake.tick += 1
                    return ([], intake.epoch, overflow, .doze(intake.tick, intake.pause))
                }
                if pacing {
                    intake.waitsForLanes = true
                    return ([], intake.epoch, overflow, .waitForLanes)
                }
                return (intake.takeChunk(), intake.epoch, overflow, .process)
            }
            if overflow > 0 { configuration.errorHandler?(.intakeOverflow(events: overflow)) }
            switch next {
            case .stop:
                return
            case .doze(let tick, let pause):
                let interval = pause == .lingering ? Self.lingerInterval : Self.tickInterval
                // Weakly: a service that goes away stops dozing with it.
                queue.asyncAfter(deadline: .now() + interval) { [weak self] in self?.drain(tick: tick) }
                return
            case .waitForLanes:
                if waitForLanes() { passes += 1; continue }
                return
            case .process:
                break
            }
            passes += 1
            didWork = true
            lastWorkAt = now
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

    /// What the loop does after a look at the intake.
    private enum Next {
        case process, waitForLanes, doze(Int, Intake.Pause), stop
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
            drain(tick: nil)
        }
        return false
    }
}
