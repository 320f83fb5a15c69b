import AnnaTesting
import Foundation
import Testing

@testable import Anna

enum SHA256Vectors {
    static func hex(_ text: String) -> String { SHA256.hexDigest(Array(text.utf8)) }
}

@Suite struct SupportTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 1_000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func sha256MatchesTheStandardVectors(_ message: String, _ digest: String) {
        #expect(SHA256Vectors.hex(message) == digest)
    }

    @Test func messageIDsIncreaseWithinOneMillisecond() {
        var generator = MessageIDGenerator()
        let now = Date()
        let ids = (0..<10_000).map { _ in generator.next(at: now).uuidString }
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        let earlier = generator.next(at: now.addingTimeInterval(-5)).uuidString
        #expect(earlier > ids.last!, "a clock that goes back does not break the order")
    }

    @Test func eventDifferenceNamesTheEventAndParameter() {
        let expected = [AnalyticsEvent(name: "a"), AnalyticsEvent(name: "categoryAdded", parameters: ["itemCount": 3, "title": "Books"])]
        let actual = [AnalyticsEvent(name: "a"), AnalyticsEvent(name: "categoryAdded", parameters: ["itemCount": 4])]
        #expect(
            EventDifference.describe(expected: expected, actual: actual)
                == "event 2 of 2: categoryAdded: parameter 'itemCount' expected 3 (int), got 4 (int); parameter 'title' expected \"Books\", missing"
        )
        #expect(EventDifference.describe(expected: expected, actual: Array(actual.prefix(1))) == "expected 2 events, got 1; missing: categoryAdded(itemCount: 3, title: Books)")
        #expect(EventDifference.describe(expected: expected, actual: expected) == nil)
    }
}
