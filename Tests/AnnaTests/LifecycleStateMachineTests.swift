@testable import Anna
import Foundation
import Testing

/// The lifecycle's decisions, driven with no threads, clocks or platform.
@Suite struct LifecycleStateMachineTests {
    @Test func backgroundFlushesThenSuspendsOnce() {
        var machine = LifecycleStateMachine(tracksLifecycleEvents: false)
        #expect(machine.handle(.lifecycle(.launched)) == [])
        #expect(machine.handle(.lifecycle(.background)) == [.startBackgroundFlush(generation: 1)])
        #expect(machine.handle(.backgroundFlushFinished(generation: 1)) == [.suspendProviders])
        #expect(machine.isSuspended)
        #expect(machine.handle(.backgroundWindowExpired(generation: 1)) == [])   // already suspended
        #expect(machine.handle(.lifecycle(.foreground)) == [.resumeProviders])
        #expect(!machine.isSuspended && !machine.isInBackground)
    }

    @Test func anAppThatCameBackBeforeItsFlushEndedIsNotSuspended() {
        var machine = LifecycleStateMachine(tracksLifecycleEvents: false)
        _ = machine.handle(.lifecycle(.background))
        #expect(machine.handle(.lifecycle(.foreground)) == [])           // nothing was suspended
        #expect(machine.handle(.backgroundFlushFinished(generation: 1)) == [])
        #expect(!machine.isSuspended)
        // Left again: only the newest window's flush suspends.
        #expect(machine.handle(.lifecycle(.background)) == [.startBackgroundFlush(generation: 3)])
        #expect(machine.handle(.backgroundFlushFinished(generation: 1)) == [])
        #expect(machine.handle(.backgroundFlushFinished(generation: 3)) == [.suspendProviders])
    }

    @Test func expiryBeforeTheFlushEndsSuspendsAtOnce() {
        var machine = LifecycleStateMachine(tracksLifecycleEvents: false)
        _ = machine.handle(.lifecycle(.background))
        #expect(machine.handle(.backgroundWindowExpired(generation: 1)) == [.suspendProviders])
        #expect(machine.handle(.backgroundFlushFinished(generation: 1)) == [])
    }

    @Test func lifecycleEventsAreReportedAroundTheTransitions() {
        var machine = LifecycleStateMachine(tracksLifecycleEvents: true)
        #expect(machine.handle(.lifecycle(.background)) == [.reportBackgrounded, .startBackgroundFlush(generation: 1)])
        _ = machine.handle(.backgroundFlushFinished(generation: 1))
        // Resumed before `Application Opened` is reported, so the providers receive it.
        #expect(machine.handle(.lifecycle(.foreground)) == [.resumeProviders, .reportOpenedFromBackground])
        #expect(machine.handle(.lifecycle(.willTerminate)) == [.flushBeforeTermination])
    }

    @Test func aBackgroundTaskEndsExactlyOnce() {
        var finished = BackgroundTaskLedger<Int>()
        #expect(finished.began(7) == nil)
        #expect(finished.workFinished() == 7)
        #expect(finished.expired() == nil)              // already ended
        #expect(finished.isEnded)

        var expired = BackgroundTaskLedger<Int>()
        #expect(expired.began(8) == nil)
        #expect(expired.expired() == 8)                 // ended inside the expiration handler
        #expect(expired.workFinished() == nil)

        var early = BackgroundTaskLedger<Int>()
        #expect(early.workFinished() == nil)            // done before the task began
        #expect(early.isEnded)
        #expect(early.began(9) == 9)                    // end it at once
        #expect(early.expired() == nil)
    }

    @Test func anExtensionIsTheProcessOfAnAppexBundle() {
        #expect(AppHost.of(bundleAt: URL(fileURLWithPath: "/private/var/containers/Bundle/Application/X/Shop.app")) == .application)
        #expect(AppHost.of(bundleAt: URL(fileURLWithPath: "/X/Shop.app/PlugIns/Widget.appex")) == .appExtension)
        #expect(AppHost.of(bundleAt: URL(fileURLWithPath: "/X/Shop.app/PlugIns/Share.APPEX/")) == .appExtension)
        #expect(AppHost.of(bundleAt: URL(fileURLWithPath: "/usr/local/bin")) == .application)
        #expect(AppHost.current == .application)        // this test process
    }
}
