@_spi(Generated) import Anna
import Foundation
import Testing

/// Exercises the golden generated sources in Generated/, which this target compiles
/// as they are: the factories build the events the specs describe.
@Suite struct GeneratedCodeTests {
    @Test func eventWithoutParametersIsAStaticProperty() {
        let event = AnalyticsEvent.categorySelected
        #expect(event.name == "categorySelected")
        #expect(event.parameters.isEmpty)
        #expect(event.metadata == AnalyticsEvent.Metadata())
    }

    @Test func factoryCarriesTypedParametersAndMetadata() {
        let event = AnalyticsEvent.categoryAdded(categoryTitle: "Books", itemCount: 3, source: .manual, tags: ["a", "b"])
        #expect(event.name == "categoryAdded")
        #expect(event.parameters == [
            "categoryTitle": .string("Books"), "itemCount": .int(3), "source": .string("manual"),
            "tags": .array([.string("a"), .string("b")]),
        ])
        #expect(event.metadata.piiKeys == ["categoryTitle"])
        #expect(event.metadata.constraints["categoryTitle"] == ParameterConstraint(maxLength: 100))
        #expect(event.metadata.constraints["itemCount"] == ParameterConstraint(min: 0))
        #expect(event.metadata.consent == .analytics)
    }

    @Test func optionalParametersDefaultToNilAndAreLeftOut() {
        let withPrice = AnalyticsEvent.categoryAdded(categoryTitle: "B", itemCount: 0, source: .sync, tags: [], price: 9.5)
        #expect(withPrice.parameters["price"] == .double(9.5))
        let withoutPrice = AnalyticsEvent.categoryAdded(categoryTitle: "B", itemCount: 0, source: .sync, tags: [])
        #expect(withoutPrice.parameters["price"] == nil)
        #expect(withoutPrice.parameters.count == 4)
    }

    @Test func enumsAreStringBackedAndKeywordsWork() {
        #expect(CategorySource.allCases == [.manual, .import, .sync])
        #expect(CategorySource.import.rawValue == "import")
        #expect(CategorySharedChannel.copyLink.rawValue == "copy link")
        let shared = AnalyticsEvent.categoryShared(channel: .copyLink, recipients: 2)
        #expect(shared.metadata.consent == "marketing")
        #expect(shared.metadata.constraints["channel"]?.allowedValues == ["message", "mail", "copy link"])
        #expect(shared.parameters["channel"] == .string("copy link"))
    }

    @Test func spacedNamesKeepTheirWireNames() throws {
        let id = try #require(UUID(uuidString: "8D5A6B0E-4C1F-4B7A-9E1D-2F3C4B5A6D7E"))
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let event = AnalyticsEvent.orderCompleted(
            orderId: id, placedAt: date, default: true, delivery: [.inStore, .express],
            receipt: URL(string: "https://example.com/r/1"), in: 4
        )
        #expect(event.name == "Order Completed")
        #expect(event.parameters["order id"] == .uuid(id))
        #expect(event.parameters["placed at"] == .date(date))
        #expect(event.parameters["default"] == .bool(true))
        #expect(event.parameters["in"] == .int(4))
        #expect(event.parameters["delivery"] == .array([.string("in store"), .string("express")]))
        #expect(event.parameters["coupon"] == nil)
        #expect(event.metadata.constraints["coupon"]?.pattern == #"^[A-Z]{3}\d+"\\$"#)
    }

    @Test func eventsRoundTripThroughCodable() throws {
        let event = AnalyticsEvent.categoryAdded(categoryTitle: "Books", itemCount: 3, source: .manual, tags: ["x"], price: 1.25)
        let decoded = try JSONDecoder().decode(AnalyticsEvent.self, from: JSONEncoder().encode(event))
        #expect(decoded == event)
    }
}
