import Anna
import AnnaWebContent
import Foundation
import Testing

/// What a hostile or broken page may try: each message is refused, counted in
/// `metrics.lost` under `refusedByBridge` and by kind, and the error handler hears of
/// each kind once, while the app's own events keep flowing.
@Suite struct HostilePageTests {
    @Test func undeclaredEventsWrongTypesConstraintsAndUnknownKeysAreRefused() async {
        let harness = BridgeHarness()
        let refused: [(WebContentOutcome, WebContentRefusal.Kind)] = [
            (harness.track("notInThePlan"), .undeclaredEvent),
            (harness.track("legacyCheckout", #"{"total":1}"#), .undeclaredEvent),  // deprecated: not in the catalog
            (harness.track("productViewed", #"{"productID":"p","category":"books","price":1,"color":"crimson-secret"}"#), .undeclaredProperty),
            (harness.track("productViewed", #"{"productID":7,"category":"books","price":1}"#), .invalidValue),
            (harness.track("productViewed", #"{"productID":"p","category":"food","price":1}"#), .invalidValue),
            (harness.track("productViewed", #"{"productID":"p","price":1}"#), .invalidValue),
            (harness.track("reviewSubmitted", #"{"productID":"p","rating":4.5,"hasPhoto":true}"#), .invalidValue),
            (harness.track("reviewSubmitted", #"{"productID":"p","rating":9,"hasPhoto":true}"#), .constraintViolated),
            (harness.track("productAddedToCart", #"{"productID":"p","quantity":1,"price":1,"coupon":"lower case"}"#), .constraintViolated),
            (harness.track("productViewed", #"{"productID":"\#(String(repeating: "x", count: 65))","category":"books","price":1}"#), .constraintViolated),
            (harness.post(#"{"anna":1,"type":"track","event":"homeViewed","extra":true}"#), .malformed),
            (harness.post(#"{"anna":2,"type":"track","event":"homeViewed"}"#), .malformed),
            (harness.post(#"{"anna":1,"type":"alias","newUserId":"x"}"#), .malformed),
            (harness.post("not json"), .malformed),
            (harness.channel.receive(["anna": 1], from: BridgeHarness.page), .malformed),
            (harness.post(#"{"anna":1,"type":"track","event":"homeViewed","context":{"plan":{"name":"OtherApp","version":"1.0.0"}}}"#), .otherPlan),
        ]
        for (index, (outcome, kind)) in refused.enumerated() {
            #expect(outcome.refusalKind == kind, "message \(index): \(outcome)")
        }
        // An object with a property its type does not declare, inside a list.
        let item = #"{"itemID":"s","itemName":"n","itemCategory":"books","price":1,"quantity":1,"secret":"x"}"#
        let order = #"{"orderID":"o","total":1,"method":"card","itemCount":1,"placedAt":"2026-01-01T00:00:00.000Z","items":[\#(item)]}"#
        #expect(harness.track("orderPlaced", order).refusalKind == .invalidValue)

        // The app's own events keep flowing, and nothing the page sent reached the provider.
        harness.service.report(.homeViewed)
        #expect(await harness.delivered() == [.homeViewed])
        #expect(harness.lostToBridge == refused.count + 1)
        #expect(harness.bridge.refusals.values.reduce(0, +) == refused.count + 1)
        // Once per kind, naming the event and never a value.
        let reported = harness.refusalsReported
        #expect(reported.map(\.kind) == [.undeclaredEvent, .undeclaredProperty, .invalidValue, .constraintViolated, .malformed, .otherPlan])
        #expect(reported[1].name == "productViewed" && reported[1].message.contains("color"))
        #expect(!reported.contains { $0.description.contains("lower case") || $0.description.contains("crimson-secret") })
    }

    @Test func aTenMegabyteMessageIsRefusedBeforeItIsParsed() async {
        let harness = BridgeHarness()
        let huge = #"{"anna":1,"type":"track","event":"homeViewed","properties":{"x":""# + String(repeating: "a", count: 10 << 20) + #""}}"#
        let outcome = harness.post(huge)
        #expect(outcome.refusalKind == .tooLarge)
        #expect(harness.bridge.refusals == [.tooLarge: 1])
        harness.service.report(.appOpened)
        #expect(await harness.delivered() == [.appOpened])
        #expect(harness.lostToBridge == 1)
        #expect(harness.refusalsReported.map(\.kind) == [.tooLarge])
    }

    @Test func tenThousandMessagesInOneSecondAreHeldToTheRate() async {
        let harness = BridgeHarness()
        var accepted = 0
        for index in 0..<10_000 {
            // 10,000 messages spread over one second of the injected clock.
            if index > 0 { harness.advance(by: .microseconds(100)) }
            if harness.track("homeViewed") == .accepted { accepted += 1 }
        }
        // The burst of 50, and 20 a second after it: 50 + 20 × 0.9999 s.
        #expect(accepted == 69)
        #expect(harness.bridge.refusals == [.rateExceeded: 10_000 - 69])
        harness.service.report(.appOpened)
        let delivered = await harness.delivered()
        #expect(delivered.count == 70 && delivered.last == .appOpened)
        #expect(harness.lostToBridge == 10_000 - 69)
        #expect(harness.refusalsReported.map(\.kind) == [.rateExceeded])
        // Another web view has a bucket of its own.
        let other = harness.bridge.makeChannel()
        #expect(other.receive(#"{"anna":1,"type":"track","event":"homeViewed"}"#, from: BridgeHarness.page) == .accepted)
    }

    @Test func originsNotAllowedAreRefused() async {
        let harness = BridgeHarness()
        let message = #"{"anna":1,"type":"track","event":"homeViewed"}"#
        for origin in [
            WebContentOrigin(scheme: "https", host: "evil.example.com"),
            WebContentOrigin(scheme: "http", host: "checkout.example.com"),
            WebContentOrigin(scheme: "https", host: "checkout.example.com", port: 8443),
            WebContentOrigin(scheme: "https", host: "example.com"),
        ] {
            #expect(harness.channel.receive(message, from: origin).refusalKind == .originNotAllowed)
        }
        // Port 0 is the scheme's default, and case does not matter.
        #expect(harness.channel.receive(message, from: WebContentOrigin(scheme: "HTTPS", host: "Checkout.Example.com", port: 443)) == .accepted)
        #expect(WebContentOrigin("https://checkout.example.com/path?q=1") == BridgeHarness.page)
        #expect(await harness.delivered() == [.homeViewed])
        #expect(harness.lostToBridge == 4)
        #expect(harness.refusalsReported.count == 1)
        // An empty list allows nothing.
        let closed = WebContentBridge(service: harness.service, catalog: .shop).makeChannel()
        #expect(closed.receive(message, from: BridgeHarness.page).refusalKind == .originNotAllowed)
    }

    @Test func commandsAreRefusedUnlessAllowedByName() async {
        let harness = BridgeHarness()
        let commands = [
            #"{"anna":1,"type":"identify","userId":"intruder","traits":{},"naming":"spec"}"#,
            #"{"anna":1,"type":"group","groupId":"g","traits":{}}"#,
            #"{"anna":1,"type":"reset"}"#,
            #"{"anna":1,"type":"optOut","optedOut":true}"#,
            #"{"anna":1,"type":"optOut","optedOut":false}"#,
            #"{"anna":1,"type":"consent","granted":["marketing"]}"#,
        ]
        for command in commands {
            #expect(harness.post(command).refusalKind == .commandNotAllowed)
        }
        let identity = await harness.service.identity
        #expect(identity.userID == nil && !harness.service.isOptedOut)
        #expect(!harness.service.grantedConsent.contains(.marketing))
        #expect(harness.lostToBridge == commands.count)

        // Allowed by name, they are the app's own calls.
        let allowing = BridgeHarness(allowedCommands: [.identify, .optOut])
        #expect(allowing.post(commands[0]) == .accepted)
        #expect(allowing.post(commands[2]).refusalKind == .commandNotAllowed)
        #expect(await allowing.service.identity.userID == "intruder")
        #expect(allowing.post(commands[3]) == .accepted)
        // Traits are the plan's, checked as the trait factories check them.
        #expect(allowing.post(#"{"anna":1,"type":"identify","userId":"u","traits":{"shoeSize":44}}"#).refusalKind == .undeclaredProperty)
        #expect(allowing.post(#"{"anna":1,"type":"identify","userId":"u","traits":{"loyaltyTier":"platinum"}}"#).refusalKind == .invalidValue)
        #expect(allowing.post(#"{"anna":1,"type":"identify","userId":"u","traits":{"email":"\#(String(repeating: "a", count: 250))@x.io"}}"#).refusalKind == .constraintViolated)
    }
}
