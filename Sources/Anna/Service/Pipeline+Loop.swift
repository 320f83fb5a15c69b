import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The pipeline's loop: a thread of its own that takes the intake a chunk at a time,
/// lingers briefly after work, paces itself on the lanes, and parks with no timer when
/// there is nothing to do. The ``Intake`` decides every step; this does the waiting.
extension Pipeline {
    /// Starts the loop's thread. It keeps the pipeline until the service is gone
    /// (``close()``) and what it reported is processed.
    func startLoop() {
        let thread = Thread { [self] in run() }
        thread.name = "anna.pipeline"
        // Below the app's threads: waking the loop never takes the reporting thread's core.
        thread.qualityOfService = .utility
        thread.start()
    }

    /// The service is gone: the loop processes what is left, then ends.
    func close() {
        if intake.withLock({ $0.closed() }) == .signal { wake() }
    }

    /// Wakes the loop's thread; what an input of the ``Intake`` returned ``Intake/Wake/signal`` for.
    func wake() {
        wakeSignal.signal()
    }

    /// The loop: every step runs on `queue` (which owns the pipeline's state), entered
    /// from this thread, which waits between steps as the intake said.
    private func run() {
        var scheduling = LoopScheduling()
        scheduling.parking()
        queue.sync { launch() }
        // It looks at once after the launch: what was reported or asked meanwhile (a
        // flush, say) waits for no linger, which would cost a new service 2 ms.
        var wait = Intake.Next.process([], epoch: 0)
        while true {
            switch wait {
            case .park:
                scheduling.parking()
                wakeSignal.wait()
            case .linger:
                _ = wakeSignal.wait(timeout: .now() + Self.lingerInterval)
            case .waitForLanes:
                _ = wakeSignal.wait(timeout: .now() + .nanoseconds(Int(clamping: configuration.lanePatience)))
            case .exit:
                return
            case .process:
                break
            }
            wait = queue.sync { drain(&scheduling) }
        }
    }

    /// The first work of the loop: reads the stored identity and gives the intake what
    /// it needs to apply it under what the app did meanwhile (``Intake/launched(grantedConsent:storedOptOut:events:at:)``).
    private func launch() {
        let launch = start(now: Date())
        intake.withLock {
            $0.launched(
                grantedConsent: launch.grantedConsent, storedOptOut: launch.identity.isOptedOut,
                events: launch.events, at: Date())
        }
    }

    /// A lane or the intake freed room: wakes the loop if it waits for a lane.
    func lanesFreedRoom() {
        if intake.withLock({ $0.lanesFreedRoom() }) == .signal { wake() }
    }

    /// Processes what was reported, a chunk at a time, until the intake says to wait.
    /// While a lane is full of work (``LanePacing``) the loop leaves the rest in the
    /// intake, where an event costs least, and goes on when a lane frees room.
    /// - Returns: How the loop waits before its next look.
    private func drain(_ scheduling: inout LoopScheduling) -> Intake.Next {
        while true {
            let pacing = lanesArePacing()
            var next: Intake.Next
            let overflow: Int
            (next, overflow) = intake.withLock { ($0.looked(pacing: pacing, now: DispatchTime.now().uptimeNanoseconds), $0.takeUnreportedOverflow()) }
            if overflow > 0 { configuration.errorHandler?(.intakeOverflow(events: overflow)) }
            // Moved out of the step, so the loop holds the chunk's only reference: it
            // empties it in place and hands it back whole, instead of copying it.
            var used = next.takeItems()
            switch next {
            case .process(_, let epoch):
                if used.count >= IntakeBuffer.chunkSize { scheduling.busy() }
                let (events, bytes) = process(&used, epoch: epoch)
                used.removeAll(keepingCapacity: true)
                // The events are in the lanes now, which count them: the intake has room again.
                intake.withLock { $0.processed(events: events, bytes: bytes, used: &used) }
                room.signal()
            case .waitForLanes:
                // A lane may have freed room before the intake knew the loop waits for it.
                guard lanesArePacing() else {
                    _ = intake.withLock { $0.lanesFreedRoom() }
                    continue
                }
                return next
            case .linger, .park, .exit:
                return next
            }
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
}

/// The loop thread's scheduling on Linux, where a woken thread takes the core of the
/// thread that woke it, which then waits for it. While parked the loop is a batch
/// thread (`SCHED_BATCH`), which runs as soon as a core is free but never preempts one
/// on waking: the first `report` after a pause pays one signal, not the loop's work
/// (Apple's schedulers do that for `.utility`). In a burst (a whole chunk waited) it is
/// an ordinary thread again, which the lanes it feeds do not starve. One system call
/// at each change, none while the loop stays in one state.
struct LoopScheduling {
    private var isBatch = false

    /// The loop is about to park.
    mutating func parking() { set(batch: true) }

    /// The loop found a whole chunk waiting.
    mutating func busy() { set(batch: false) }

    private mutating func set(batch: Bool) {
        guard batch != isBatch else { return }
        isBatch = batch
        #if os(Linux) || os(Android)
        var parameters = sched_param()
        // SCHED_BATCH (3) and SCHED_OTHER (0), which Glibc declares only for _GNU_SOURCE.
        _ = sched_setscheduler(0, batch ? 3 : 0, &parameters)
        #endif
    }
}
