import Anna
import AnnaWebContent
import Foundation
import Testing

/// A page reports through the app's service, so it cannot get around the user's choices.
@Suite struct ConsentAndOptOutTests {
    @Test func afterTheAppOptsOutNoBridgedEventReachesAProvider() async {
        let harness = BridgeHarness()
        #expect(harness.track("homeViewed") == .accepted)
        #expect(await harness.delivered() == [.homeViewed])
        await harness.service.optOut()
        // Accepted by the bridge (the message is valid), dropped by the service.
        #expect(harness.track("homeViewed") == .accepted)
        #expect(harness.track("checkoutStarted", #"{"itemCount":1,"total":2,"delivery":"pickup"}"#) == .accepted)
        await harness.service.flush()
        #expect(harness.recorder.events == [.homeViewed])
        #expect(harness.service.metrics.lost[harness.recorder.name]?[.optOut] == 2)
    }

    @Test func aPageEventInAWithheldConsentCategoryIsDropped() async {
        let harness = BridgeHarness()  // analytics granted, marketing not
        #expect(harness.track("promoBannerTapped", #"{"campaign":"spring"}"#) == .accepted)
        #expect(harness.track("homeViewed") == .accepted)
        #expect(await harness.delivered() == [.homeViewed])
        #expect(harness.service.metrics.lost[harness.recorder.name]?[.consent] == 1)
        // A page cannot grant itself the category.
        #expect(harness.post(#"{"anna":1,"type":"consent","granted":["analytics","marketing"]}"#).refusalKind == .commandNotAllowed)
        #expect(!harness.service.grantedConsent.contains(.marketing))
    }
}
