@_spi(Generated) import Anna
import AnnaTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct AnalyticsServiceTests {
    @Test func reportedEventsReachTheProviderInOrder() async {
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [recorder], configuration: .test())
        analytics.report(.categoryAdded(categoryTitle: "Books", itemCount: 3))
        analytics.report(event: .categorySelected)
        await analytics.flush()
        #expect(recorder.events == [.categoryAdded(categoryTitle: "Books", itemCount: 3), .categorySelected])
        #expect(recorder.flushCount == 1)
        let metrics = analytics.metrics
        #expect(metrics.reported == 2 && metrics.forwarded == 2 && metrics.delivered["RecordingProvider"] == 2)
    }

    @Test func flushWithoutProvidersReturns() async {
        let analytics = AnalyticsService(providers: [], configuration: .test())
        analytics.report(.categorySelected)
        await analytics.flush()
        #expect(analytics.metrics.forwarded == 1)
    }

    /// Eight threads report 100,000 events in all; one provider blocks its thread on
    /// every batch and one throws. The recorders get every event in per-thread order.
    @Test func orderAndIsolationUnderConcurrency() async {
        let threads = 8
        let perThread = 12_500
        let first = RecordingProvider(name: "first")
        let second = RecordingProvider(name: "second")
        let errors = ErrorLog()
        // Order and isolation, not the memory bounds: room for the whole burst.
        var configuration = AnalyticsService.Configuration.test(errorHandler: errors.handler)
        configuration.intakeLimit = MemoryLimit(events: 1 << 20, bytes: 1 << 30)
        configuration.providerLimit = MemoryLimit(events: 1 << 20, bytes: 1 << 30)
        let analytics = AnalyticsService(
            providers: [first, SleepingProvider(pause: 0.002), ThrowingProvider(), second],
            configuration: configuration
        )
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for sequence in 0..<perThread { analytics.report(.numbered(thread: thread, sequence: sequence)) }
        }
        await analytics.flush()

        for recorder in [first, second] {
            let events = recorder.events
            #expect(events.count == threads * perThread)
            var next = [Int](repeating: 0, count: threads)
            var outOfOrder = 0
            for event in events {
                guard case .int(let thread) = event.parameters["thread"], case .int(let sequence) = event.parameters["sequence"] else {
                    Issue.record("unexpected event \(event)")
                    return
                }
                if sequence != next[thread] { outOfOrder += 1 }
                next[thread] = sequence + 1
            }
            #expect(outOfOrder == 0)
            #expect(next == [Int](repeating: perThread, count: threads))
        }
        let metrics = analytics.metrics
        #expect(metrics.delivered["SleepingProvider"] == threads * perThread)
        #expect(metrics.failed["ThrowingProvider"] == threads * perThread)
        let failedEvents = errors.errors.reduce(0) { total, error in
            error.code == .providerFailed && error.provider == "ThrowingProvider" ? total + error.batch.count : total
        }
        #expect(failedEvents == threads * perThread)
    }

    /// A provider that never returns from `receive` delays no other provider.
    @Test func aHangingProviderDelaysNoOther() async {
        let gate = GateProvider()
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [gate, recorder], configuration: .test())
        analytics.report(.categorySelected)
        gate.waitUntilBlocked()
        for index in 0..<1_000 { analytics.report(.numbered(thread: 0, sequence: index)) }
        await recorder.waitForEvents(count: 1_001)
        #expect(recorder.events.count == 1_001)
        #expect(gate.count == 0)
        gate.open()
        await analytics.flush()
        #expect(gate.count == 1_001)
    }

    @Test func eventsOfAnUngrantedCategoryAreDroppedAndCounted() async {
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [recorder], configuration: .test())
        let promo = AnalyticsEvent(name: "promoTapped", metadata: .init(consent: .marketing))
        analytics.report(promo)
        analytics.report(.categorySelected)
        analytics.grant(.marketing)
        analytics.report(promo)
        analytics.revoke(.analytics)
        analytics.report(.categorySelected)
        await analytics.flush()
        #expect(recorder.events == [.categorySelected, promo])
        #expect(analytics.metrics.dropped[.consent, default: 0] == 2)
        #expect(analytics.grantedConsent == [.necessary, .marketing])
    }

    @Test func optOutPurgesWhatIsQueuedAndStopsCollection() async {
        let gate = GateProvider()
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [gate, recorder], configuration: .test())
        analytics.report(.categorySelected)
        gate.waitUntilBlocked()
        for index in 0..<500 { analytics.report(.numbered(thread: 0, sequence: index)) }
        await recorder.waitForEvents(count: 501)
        // The gate's lane finishes the batch inside `receive` before it purges, so
        // the opt-out returns only once the gate is opened.
        let optingOut = Task { await analytics.optOut() }
        while !analytics.isOptedOut { await Task.yield() }
        analytics.report(.categorySelected)
        gate.open()
        await optingOut.value
        #expect(recorder.purgeCount == 1)
        await analytics.flush()
        #expect(gate.count == 1, "only the batch the provider had taken before the opt-out")
        #expect(recorder.events.count == 501)
        #expect(analytics.metrics.dropped[.optOut, default: 0] == 501)
        analytics.optIn()
        analytics.report(.categorySelected)
        await analytics.flush()
        #expect(recorder.events.count == 502)
    }

    /// After `optOut()` returns, every provider has purged: a provider whose purge
    /// takes a while has finished it, and a batch handed over before is gone too.
    @Test func optOutReturnsOnlyOnceEveryProviderHasPurged() async {
        let slow = SlowPurgeProvider()
        let analytics = AnalyticsService(providers: [slow], configuration: .test())
        for index in 0..<100 { analytics.report(.numbered(thread: 0, sequence: index)) }
        await analytics.optOut()
        #expect(slow.purges == 1)
        await analytics.flush()
        #expect(slow.receivedAfterPurge == 0)
    }

    /// `flush()` returns after the pipeline counted what came before it, with or
    /// without providers (the counts were once added after the drain was handed on).
    @Test func metricsAreCountedWhenFlushReturns() async {
        for providers in [[], [RecordingProvider()] as [any AnalyticsProvider]] {
            for _ in 0..<200 {
                let analytics = AnalyticsService(providers: providers, configuration: .test(grantedConsent: [.analytics]))
                analytics.report(AnalyticsEvent(name: "promo", metadata: .init(consent: .marketing)))
                analytics.report(.categorySelected)
                await analytics.flush()
                let metrics = analytics.metrics
                #expect(metrics.dropped[.consent, default: 0] == 1 && metrics.forwarded == 1)
                if metrics.dropped[.consent, default: 0] != 1 || metrics.forwarded != 1 { return }
            }
        }
    }

    /// Concurrent grants and revocations all take effect: each is read, changed and
    /// written under one lock.
    @Test func concurrentConsentChangesAreNotLost() async {
        let analytics = AnalyticsService(providers: [], configuration: .test(grantedConsent: []))
        let threads = 8
        let perThread = 300
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                analytics.grant(ConsentCategory("c-\(thread)-\(index)"))
                // Revoke a category no other thread grants: only a lost update shows.
                if index % 3 == 0 { analytics.revoke(ConsentCategory("c-\(thread)-\(index)")) }
            }
        }
        let granted = analytics.grantedConsent
        #expect(granted.count == threads * (perThread - perThread / 3))
        #expect(!granted.contains(ConsentCategory("c-0-0")) && granted.contains(ConsentCategory("c-7-1")))
    }

    /// While the pipeline is held up, the intake takes `intakeLimit` events; the rest
    /// are dropped at once, counted and reported, and `report` never waits.
    @Test func aFullIntakeDropsCountsAndReports() async {
        let stage = BlockingStage()
        let errors = ErrorLog()
        let recorder = RecordingProvider()
        var configuration = AnalyticsService.Configuration.test(stages: [stage], errorHandler: errors.handler)
        configuration.intakeLimit = MemoryLimit(events: 100, bytes: 1 << 20)
        let analytics = AnalyticsService(providers: [recorder], configuration: configuration)
        analytics.report(.numbered(thread: 0, sequence: 0))
        stage.waitUntilBlocked()
        for index in 1..<250 { analytics.report(.numbered(thread: 0, sequence: index)) }
        #expect(analytics.metrics.dropped[.overflow, default: 0] == 150)
        stage.open()
        await analytics.flush()
        #expect(recorder.events.count == 100)
        let reported = errors.errors.reduce(0) { total, error in
            error.code == .intakeOverflow ? total + (error.events ?? 0) : total
        }
        #expect(reported == 150)
        #expect(analytics.metrics.reported == 250)
    }

    /// Bytes bound the intake too: a few large events fill it.
    @Test func theIntakeIsBoundedInBytes() async {
        let stage = BlockingStage()
        let recorder = RecordingProvider()
        var configuration = AnalyticsService.Configuration.test(stages: [stage])
        configuration.intakeLimit = MemoryLimit(events: 10_000, bytes: 100_000)
        let analytics = AnalyticsService(providers: [recorder], configuration: configuration)
        let large = AnalyticsEvent(name: "note", parameters: ["text": .string(String(repeating: "x", count: 10_000))])
        analytics.report(large)
        stage.waitUntilBlocked()
        for _ in 0..<20 { analytics.report(large) }
        stage.open()
        await analytics.flush()
        #expect(recorder.events.count >= 9 && recorder.events.count <= 11)
        #expect(analytics.metrics.dropped[.overflow, default: 0] == 21 - recorder.events.count)
    }

    /// A provider that hangs holds at most `providerLimit` events in its lane; the
    /// others are dropped for it alone, counted and reported, and other providers
    /// get everything.
    @Test func aHangingProviderHoldsBoundedMemory() async {
        let gate = GateProvider()
        let recorder = RecordingProvider()
        let errors = ErrorLog()
        var configuration = AnalyticsService.Configuration.test(errorHandler: errors.handler)
        configuration.providerLimit = MemoryLimit(events: 100, bytes: 1 << 20)
        let analytics = AnalyticsService(providers: [gate, recorder], configuration: configuration)
        analytics.report(.categorySelected)
        gate.waitUntilBlocked()
        // The recorder's lane has the same limit: it must have delivered the first event,
        // and never hold more than half its limit, or it too would drop (and this wait for ever).
        await recorder.waitForEvents(count: 1)
        for index in 0..<5_000 {
            analytics.report(.numbered(thread: 0, sequence: index))
            if index % 50 == 49 { await recorder.waitForEvents(count: index + 2) }
        }
        await recorder.waitForEvents(count: 5_001)
        let overflowed = analytics.metrics.overflowed["GateProvider"] ?? 0
        #expect(overflowed == 5_001 - 100)
        gate.open()
        await analytics.flush()
        #expect(gate.count == 100)
        #expect(recorder.events.count == 5_001)
        let reported = errors.errors.reduce(0) { total, error in
            error.code == .providerOverflow && error.provider == "GateProvider" ? total + (error.events ?? 0) : total
        }
        #expect(reported == overflowed)
    }

    /// `reportWaitingForRoom` waits for a slow provider instead of dropping: every
    /// event reaches it.
    @Test func reportingWaitingForRoomDropsNothing() async {
        let gate = GateProvider()
        var configuration = AnalyticsService.Configuration.test()
        configuration.providerLimit = MemoryLimit(events: 50, bytes: 1 << 20)
        configuration.intakeLimit = MemoryLimit(events: 20, bytes: 1 << 20)
        let analytics = AnalyticsService(providers: [gate], configuration: configuration)
        await analytics.reportWaitingForRoom(.categorySelected)
        gate.waitUntilBlocked()
        let importer = Task {
            for index in 0..<1_000 { await analytics.reportWaitingForRoom(.numbered(thread: 0, sequence: index)) }
        }
        try? await Task.sleep(for: .milliseconds(50))
        #expect(analytics.metrics.reported < 1_001, "the importer waits while the provider is blocked")
        gate.open()
        await importer.value
        await analytics.flush()
        #expect(gate.count == 1_001)
        let metrics = analytics.metrics
        #expect(metrics.overflowed.isEmpty && metrics.dropped.isEmpty)
    }

    @Test func piiIsRemovedOrHashedForProvidersThatMayNotReceiveIt() async throws {
        let trusted = RecordingProvider(name: "trusted")
        let stripped = RecordingProvider(name: "stripped", options: ProviderOptions())
        let hashed = RecordingProvider(name: "hashed", options: ProviderOptions(piiHandling: .hash(salt: "pepper")))
        let analytics = AnalyticsService(providers: [trusted, stripped, hashed], configuration: .test())
        let search = AnalyticsEvent(
            name: "searchPerformed",
            parameters: ["query": "jane@example.com", "resultCount": 3],
            metadata: .init(piiKeys: ["query"])
        )
        analytics.report(search)
        await analytics.flush()
        #expect(trusted.events == [search])
        #expect(stripped.events.first?.parameters == ["resultCount": 3])
        let hash = try #require(hashed.events.first?.parameters["query"])
        #expect(hash == .string(SHA256Vectors.hex("pepperjane@example.com")))
        #expect(hashed.events.first?.parameters["resultCount"] == 3)
    }

    @Test func violationPolicies() async {
        let constrained = AnalyticsEvent(
            name: "rated",
            parameters: ["stars": 9, "comment": "fine"],
            metadata: .init(constraints: ["stars": ParameterConstraint(min: 1, max: 5), "comment": ParameterConstraint(pattern: "^[a-z]+$")])
        )
        for policy in [ViolationPolicy.drop, .send, .log] {
            let recorder = RecordingProvider()
            let errors = ErrorLog()
            let analytics = AnalyticsService(providers: [recorder], configuration: .test(violationPolicy: policy, errorHandler: errors.handler))
            analytics.report(constrained)
            await analytics.flush()
            #expect(recorder.events.count == (policy == .drop ? 0 : 1), "\(policy)")
            #expect(analytics.metrics.violations == 1)
            #expect(analytics.metrics.dropped[.violation, default: 0] == (policy == .drop ? 1 : 0))
            #expect(errors.errors.map(\.description) == ["event 'rated' parameter 'stars': must be at most 5 (policy: \(policy))"])
        }
    }

    @Test(arguments: [
        (ParameterConstraint(min: 2), AnalyticsValue.int(1), "at least 2"),
        (ParameterConstraint(max: 2.5), .double(3), "at most 2.5"),
        (ParameterConstraint(minLength: 2), .string("a"), "at least 2 characters long"),
        (ParameterConstraint(maxLength: 2), .string("abc"), "at most 2 characters long"),
        (ParameterConstraint(pattern: "^SKU-[0-9]+$"), .string("sku-1"), "matching /^SKU-[0-9]+$/"),
        (ParameterConstraint(allowedValues: ["a", "b"]), .array(["a", "c"]), "one of 'a', 'b'"),
    ])
    func eachConstraintIsChecked(_ constraint: ParameterConstraint, _ value: AnalyticsValue, _ message: String) async {
        let errors = ErrorLog()
        let analytics = AnalyticsService(providers: [], configuration: .test(violationPolicy: .drop, errorHandler: errors.handler))
        analytics.report(AnalyticsEvent(name: "e", parameters: ["p": value], metadata: .init(constraints: ["p": constraint])))
        analytics.report(AnalyticsEvent(name: "e", parameters: [:], metadata: .init(constraints: ["p": constraint])))
        await analytics.flush()
        #expect(errors.errors.map(\.description) == ["event 'e' parameter 'p': must be \(message) (policy: drop)"])
    }

    @Test func mappersRenameForTheirProviderOnly() async {
        let plain = RecordingProvider(name: "plain")
        let snake = RecordingProvider(name: "snake", options: ProviderOptions(mapper: SnakeCaseEventMapper(), receivesPII: true))
        let analytics = AnalyticsService(providers: [plain, snake], configuration: .test())
        analytics.report(AnalyticsEvent(name: "URLOpened", parameters: ["categoryID2": 1, "sourceURL": "x"]))
        await analytics.flush()
        #expect(plain.events.map(\.name) == ["URLOpened"])
        #expect(snake.events.map(\.name) == ["url_opened"])
        #expect(snake.events.first?.parameters == ["category_id2": 1, "source_url": "x"])
    }

    @Test func profilesEnforceProviderLimitsAtRunTime() async {
        let errors = ErrorLog()
        let firebase = RecordingProvider(
            name: "firebase",
            options: ProviderOptions(mapper: SnakeCaseEventMapper(), profile: .firebase, receivesPII: true)
        )
        let analytics = AnalyticsService(providers: [firebase], configuration: .test(errorHandler: errors.handler))
        analytics.report(AnalyticsEvent(name: "appUpdate"))
        analytics.report(AnalyticsEvent(name: "noteSaved", parameters: ["note": .string(String(repeating: "é", count: 150)), "ga_id": 1]))
        var many: [String: AnalyticsValue] = [:]
        for index in 0..<30 { many["p\(index)"] = .int(index) }
        analytics.report(AnalyticsEvent(name: "manyParameters", parameters: many))
        await analytics.flush()

        #expect(firebase.events.map(\.name) == ["note_saved", "many_parameters"])
        #expect(firebase.events[0].parameters == ["note": .string(String(repeating: "é", count: 100))])
        #expect(firebase.events[1].parameters.count == 25)
        #expect(analytics.metrics.limited["firebase"] == 3, "one event dropped, two changed")
        let lines = errors.errors.map(\.description)
        #expect(lines.contains("provider 'firebase': firebase: event 'app_update': 'app_update' is reserved (droppedEvent)"))
        #expect(lines.contains("provider 'firebase': firebase: event 'note_saved' parameter 'ga_id': the prefix 'ga_' is reserved (droppedParameter)"))
        #expect(lines.contains("provider 'firebase': firebase: event 'note_saved' parameter 'note': string values of at most 100 characters (truncatedValue)"))
        #expect(lines.filter { $0.contains("at most 25 parameters") }.count == 5)
    }

    @Test func enrichmentAddsIdsSessionIdentityAndContext() async throws {
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [recorder], configuration: .test())
        let started = Date()
        for index in 0..<2_000 { analytics.report(.numbered(thread: 0, sequence: index)) }
        analytics.identify(userID: "user-7")
        analytics.report(.categorySelected)
        await analytics.flush()

        let envelopes = recorder.envelopes
        #expect(envelopes.count == 2_001)
        let identifies = recorder.calls(.identify)
        #expect(identifies.count == 1 && identifies.first?.userID == "user-7", "identify is sent as a call of its own")
        #expect(recorder.allEnvelopes.count == 2_002)
        let ids = recorder.allEnvelopes.map(\.messageID.uuidString)
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted(), "UUID v7 ids sort in report order")
        #expect(ids.allSatisfy { Array($0)[14] == "7" }, "version 7")
        #expect(ids.allSatisfy { "89AB".contains(Array($0)[19]) }, "RFC 9562 variant")
        #expect(envelopes.allSatisfy { $0.anonymousID == "anonymous-1" && $0.context.app.name == "Tests" })
        #expect(Set(envelopes.map(\.sessionID)).count == 1)
        #expect(envelopes[0].sessionID > 1_700_000_000_000)
        #expect(envelopes.dropLast().allSatisfy { $0.userID == nil })
        #expect(envelopes.last?.userID == "user-7")
        let timestamps = envelopes.map(\.timestamp)
        #expect(timestamps == timestamps.sorted())
        // Stamped when reported: between the test's start and the flush's end (not "within
        // a minute of now", which a thread-starved run under TSan took 308 s to reach).
        let ended = Date()
        #expect(try #require(timestamps.first) >= started.addingTimeInterval(-1))
        #expect(try #require(timestamps.last) <= ended.addingTimeInterval(1))
    }

    @Test func stagesRunByPhaseAndMayDrop() async {
        let recorder = RecordingProvider()
        let before = ClosureStage(phase: .before) { envelope in
            envelope.event.parameters["seenBefore"] = .bool(envelope.userID == nil && envelope.anonymousID.isEmpty)
            return envelope.event.name != "secret"
        }
        let enrichment = ClosureStage(phase: .enrichment) { envelope in
            envelope.event.parameters["anonymous"] = .string(envelope.anonymousID)
            return true
        }
        let analytics = AnalyticsService(providers: [recorder], configuration: .test(stages: [enrichment, before]))
        analytics.report(.categorySelected)
        analytics.report(AnalyticsEvent(name: "secret"))
        await analytics.flush()
        #expect(recorder.events.map(\.parameters) == [["seenBefore": true, "anonymous": "anonymous-1"]])
        #expect(analytics.metrics.dropped[.stage, default: 0] == 1)
    }

    @Test func shutdownDeliversEverythingThenRefuses() async {
        let recorder = RecordingProvider()
        let analytics = AnalyticsService(providers: [SleepingProvider(pause: 0.001), recorder], configuration: .test())
        for index in 0..<10_000 { analytics.report(.numbered(thread: 0, sequence: index)) }
        await analytics.shutdown()
        #expect(recorder.events.count == 10_000)
        analytics.report(.categorySelected)
        await analytics.flush()
        #expect(recorder.events.count == 10_000)
        #expect(analytics.metrics.dropped[.shutdown, default: 0] == 1)
    }

    @Test func logProviderWritesNoValuesByDefault() {
        let event = AnalyticsEvent(name: "searchPerformed", parameters: ["query": "jane@example.com", "resultCount": 3])
        #expect(LogProvider.line(for: event, includesValues: false) == "searchPerformed(query, resultCount)")
        #expect(LogProvider.line(for: event, includesValues: true) == "searchPerformed(query: jane@example.com, resultCount: 3)")
    }
}
