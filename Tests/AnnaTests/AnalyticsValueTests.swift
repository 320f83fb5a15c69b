import Anna
import Foundation
import Testing

@Suite struct AnalyticsValueTests {
    static let samples: [AnalyticsValue] = [
        .string("é \"quoted\""), .int(-3), .int(Int.max), .double(2.5), .double(3), .bool(true),
        .date(Date(timeIntervalSince1970: 1_700_000_000.25)), .url(URL(string: "https://example.com/a?b=c")!),
        .uuid(UUID(uuidString: "8D5A6B0E-4C1F-4B7A-9E1D-2F3C4B5A6D7E")!), .array([.int(1), .string("x"), .array([])]),
    ]

    @Test(arguments: samples)
    func codableRoundTripKeepsTheCase(_ value: AnalyticsValue) throws {
        let decoded = try JSONDecoder().decode(AnalyticsValue.self, from: JSONEncoder().encode(value))
        #expect(decoded == value)
    }

    @Test func intAndDoubleStayApart() throws {
        let data = try JSONEncoder().encode([AnalyticsValue.int(3), .double(3)])
        #expect(String(decoding: data, as: UTF8.self) == #"[{"int":3},{"double":3}]"#)
    }

    @Test func malformedJSONIsADecodingError() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AnalyticsValue.self, from: Data(#"{"int": 1, "string": "a"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AnalyticsValue.self, from: Data(#"{}"#.utf8))
        }
    }

    @Test func literalsBuildValues() {
        let values: [AnalyticsValue] = ["a", 1, 1.5, true, [1, "b"]]
        #expect(values == [.string("a"), .int(1), .double(1.5), .bool(true), .array([.int(1), .string("b")])])
    }

    @Test func descriptionIsWhatAStringOnlyProviderShows() {
        #expect(AnalyticsValue.array(["a", 2, true]).description == "a,2,true")
        #expect(AnalyticsValue.date(Date(timeIntervalSince1970: 0)).description == "1970-01-01T00:00:00Z")
    }

    @Test func convertibleTypesMapToTheirCase() {
        enum Mode: String, AnalyticsValueConvertible { case fast }
        #expect(Mode.fast.analyticsValue == .string("fast"))
        #expect([1, 2].analyticsValue == .array([.int(1), .int(2)]))
        #expect(UUID(uuidString: "8D5A6B0E-4C1F-4B7A-9E1D-2F3C4B5A6D7E")!.analyticsValue == .uuid(UUID(uuidString: "8D5A6B0E-4C1F-4B7A-9E1D-2F3C4B5A6D7E")!))
    }
}

@Suite struct AnalyticsEventTests {
    @Test func eventsCompareByNameParametersAndMetadata() {
        let a = AnalyticsEvent(name: "opened", parameters: ["screen": "home"])
        #expect(a == AnalyticsEvent(name: "opened", parameters: ["screen": "home"]))
        #expect(a != AnalyticsEvent(name: "opened", parameters: ["screen": "cart"]))
        #expect(a != AnalyticsEvent(name: "opened", parameters: ["screen": "home"], metadata: .init(consent: .marketing)))
    }

    @Test func descriptionSortsParameters() {
        let event = AnalyticsEvent(name: "opened", parameters: ["b": 2, "a": "x"])
        #expect(event.description == "opened(a: x, b: 2)")
        #expect(AnalyticsEvent(name: "closed").description == "closed")
    }

    @Test func metadataRoundTripsThroughCodable() throws {
        let event = AnalyticsEvent(
            name: "signedUp", parameters: ["email": "a@b.c"],
            metadata: .init(consent: "marketing", piiKeys: ["email"], constraints: ["email": .init(maxLength: 100, pattern: ".+@.+")], isDeprecated: true)
        )
        #expect(try JSONDecoder().decode(AnalyticsEvent.self, from: JSONEncoder().encode(event)) == event)
    }
}

@Suite struct SnakeCaseEventMapperTests {
    @Test(arguments: [
        ("categoryAdded", "category_added"), ("URLOpened", "url_opened"), ("categoryID2", "category_id2"),
        ("userID", "user_id"), ("HTTPResponseCode", "http_response_code"), ("Order Completed", "order_completed"),
        ("simple", "simple"), ("a", "a"), ("", ""), ("ABC", "abc"), ("getHTTP", "get_http"),
        ("cafèAdded", "cafè_added"), ("ÜberFahrt", "über_fahrt"), ("naïveID2", "naïve_id2"),
        ("productIDs", "product_ids"), ("URLsOpened", "urls_opened"), ("URLSession", "url_session"),
        ("IDsList", "ids_list"), ("naïveIDs", "naïve_ids"),
    ])
    func mapsCamelCaseToSnakeCase(_ input: String, _ expected: String) {
        #expect(SnakeCaseEventMapper().name(for: input) == expected)
        #expect(SnakeCaseEventMapper().parameterName(for: input) == expected)
    }
}
