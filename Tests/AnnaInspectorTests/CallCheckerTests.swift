import Foundation
import Testing
import _AnnaGeneratorCore
@testable import _AnnaInspector

/// Each check on a call, with the spec location its finding names.
@Suite struct CallCheckerTests {
    static let checker = CallChecker(plan: try! Fixtures.plan())

    static func check(_ json: String, type: String? = nil) throws -> CallChecker.Result {
        checker.check(try JSONParser.parse(Array(json.utf8)), type: type)
    }

    /// `rule path line:column` of each finding, for compact comparisons.
    static func summary(_ result: CallChecker.Result) -> [String] {
        result.findings.map { "\($0.severity.rawValue) \($0.rule.rawValue) \($0.path) \($0.line.map(String.init) ?? "-"):\($0.column.map(String.init) ?? "-")" }
    }

    static let ids = #""messageId":"m-1","timestamp":"2026-01-01T10:00:00.000Z","anonymousId":"a-1","context":{"library":{"name":"anna-swift"}}"#

    @Test func aValidOrderHasNoFinding() throws {
        let result = try Self.check(#"{"type":"track","event":"orderPlaced","properties":{"orderID":"o-1","total":12,"delivery":"express","items":[{"sku":"ABC-1","price":2.5,"quantity":2}],"theme":"dark"},"# + Self.ids + "}")
        #expect(result.type == "track" && result.name == "orderPlaced")
        #expect(result.findings.isEmpty, "\(result.findings)")
    }

    @Test func wrongTypesEnumsAndConstraintsAtAnyDepth() throws {
        let result = try Self.check(#"{"type":"track","event":"orderPlaced","properties":{"orderID":7,"total":-1,"delivery":"drone","items":[{"sku":"abc","price":"2","quantity":100},"x"],"coupon":null},"# + Self.ids + "}")
        #expect(Self.summary(result) == [
            "error wrong-type properties.orderID 18:7",
            "error constraint properties.total 19:7",
            "error not-in-enum properties.delivery 20:7",
            "error constraint properties.items[0].sku 10:7",
            "error wrong-type properties.items[0].price 11:7",
            "error constraint properties.items[0].quantity 12:7",
            "error wrong-type properties.items[1] 21:7",
        ])
        let sku = try #require(result.findings.first { $0.path == "properties.items[0].sku" })
        #expect(sku.expected == "matching /^[A-Z]{3}-[0-9]+$/" && sku.actual == #""abc""#)
        #expect(sku.description == #"store.anna.yml:10:7: error: track "orderPlaced" properties.items[0].sku: expected matching /^[A-Z]{3}-[0-9]+$/, got "abc" [constraint]"#)
    }

    @Test func missingAndUnexpectedProperties() throws {
        let result = try Self.check(#"{"type":"track","event":"orderPlaced","properties":{"orderID":"o","total":1,"items":[{"sku":"ABC-1","price":1,"quantity":1,"color":"red"}],"extra":1},"# + Self.ids + "}")
        #expect(Self.summary(result) == [
            "error unexpected-property properties.items[0].color 8:3",
            "error unexpected-property properties.extra 15:3",
            "error missing-property properties.delivery 20:7",
        ])
    }

    @Test func unknownDeprecatedAndPII() throws {
        #expect(Self.summary(try Self.check(#"{"type":"track","event":"orderPlace","# + Self.ids + "}")) == ["error unknown-event event 14:1"])
        #expect(Self.summary(try Self.check(#"{"type":"track","event":"legacyCheckout","# + Self.ids + "}")) == ["warning deprecated  27:3"])
        let search = try Self.check(#"{"type":"track","event":"searchPerformed","properties":{"query":"my address","resultCount":3},"# + Self.ids + "}")
        #expect(Self.summary(search) == ["warning pii properties.query 25:7"])
        // A PII value is never echoed.
        #expect(!search.findings[0].actual.contains("address"))
        #expect(Self.summary(try Self.check(#"{"type":"screen","name":"Basket","# + Self.ids + "}")) == ["error unknown-screen name 32:1"])
        #expect(Self.summary(try Self.check(#"{"name":"Cart","properties":{"itemCount":-1},"# + Self.ids + "}", type: "screen")) == ["error constraint properties.itemCount 36:7"])
    }

    @Test func traitsAndGroupTraits() throws {
        let identify = try Self.check(#"{"type":"identify","userId":"u-1","traits":{"email":"a@b.c","loyaltyTier":"platinum","age":3},"messageId":"m"}"#)
        #expect(Self.summary(identify) == ["error not-in-enum traits.loyaltyTier 42:3", "error unknown-trait traits.age 40:1"])
        let group = try Self.check(#"{"type":"group","groupId":"g","traits":{"seats":0},"userId":"u","messageId":"m"}"#)
        #expect(Self.summary(group) == ["error constraint traits.seats 48:3"])
    }

    @Test func annasCallShape() throws {
        let result = try Self.check(#"{"type":"track","event":"appOpened","timestamp":"yesterday","context":[]}"#)
        #expect(Self.summary(result) == [
            "warning call-shape messageId -:-", "error call-shape timestamp -:-", "error call-shape userId -:-", "error call-shape context -:-",
        ])
        #expect(Self.summary(try Self.check(#"{"type":"alias","userId":"u","anonymousId":"a","messageId":"m"}"#)) == ["error call-shape previousId -:-"])
        #expect(Self.summary(try Self.check(#"{"type":"launch"}"#)) == ["error call-shape type -:-"])
        #expect(Self.summary(try Self.check("[1]")) == ["error call-shape  -:-"])
    }

    @Test func iso8601() {
        for valid in ["2026-01-01T00:00:00Z", "2026-01-01T00:00:00.123Z", "2026-12-31T23:59:59.1+02:00"] { #expect(ISO8601.isValid(valid), "\(valid)") }
        for invalid in ["2026-01-01", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00", "2026-01-01T00:00:00.Z", "x026-01-01T00:00:00Z"] {
            #expect(!ISO8601.isValid(invalid), "\(invalid)")
        }
    }

    @Test func theParserIsStrictAndBounded() throws {
        #expect(try JSONParser.parse(Array(#"{"a":[1,2.5,"\u00e9\ud83d\ude00",true,null]}"#.utf8)) == .object([("a", .array([.int(1), .double(2.5), .string("é😀"), .bool(true), .null]))]))
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "\"\\x\"", "\"\\ud800\"", "1 2", "nul", "[\"a\u{01}\"]", "1e999"] {
            #expect(throws: JSONSyntaxError.self, "\(bad)") { try JSONParser.parse(Array(bad.utf8)) }
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(deep.utf8)) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }
}

/// The parser's record of where each call of a batch is, so it is kept as sent.
@Suite struct BatchElementRangeTests {
    @Test func eachCallsBytesAsSent() throws {
        let text = #"{"sentAt":"x","batch":[ {"a":[1, 2]} ,"s",{"batch":[9]} ]}"#
        let bytes = Array(text.utf8)
        let (value, ranges) = try JSONParser.parse(bytes, recordingElementsOf: "batch")
        #expect(ranges.map { String(decoding: bytes[$0], as: UTF8.self) } == [#"{"a":[1, 2]}"#, #""s""#, #"{"batch":[9]}"#])
        guard case .array(let batch)? = value["batch"] else { Issue.record("no batch"); return }
        #expect(batch.count == ranges.count)
        // Written twice, the last batch is the one read (last wins), and the one recorded.
        let twice = Array(#"{"batch":[ {"a":[1, 2]} ,"s"],"batch":[3]}"#.utf8)
        let (last, lastRanges) = try JSONParser.parse(twice, recordingElementsOf: "batch")
        #expect(last["batch"] == .array([.int(3)]) && lastRanges.map { String(decoding: twice[$0], as: UTF8.self) } == ["3"])
    }
}

/// `--naming snake_case`: the names SnakeCaseEventMapper sends, at every depth.
@Suite struct SnakeCaseNamingTests {
    @Test func namesAreMappedAsTheMapperMapsThem() throws {
        let bytes = try AnnaGenerator.read(Fixtures.store)
        let spec = try #require(AnnaGenerator().check(bytes, file: "store.anna.yml").spec)
        let checker = CallChecker(plan: InspectionPlan(specs: [spec], naming: .snakeCase))
        let ids = CallCheckerTests.ids
        let order = try JSONParser.parse(Array((#"{"type":"track","event":"order_placed","properties":{"order_id":"o","total":1,"delivery":"pickup","items":[{"sku":"ABC-1","price":1,"quantity":1}],"theme":"dark"},"# + ids + "}").utf8))
        #expect(checker.check(order).findings.isEmpty)
        let camel = try JSONParser.parse(Array((#"{"type":"track","event":"orderPlaced","# + ids + "}").utf8))
        #expect(checker.check(camel).findings.map(\.rule) == [.unknownEvent])
        let screen = try JSONParser.parse(Array((#"{"type":"screen","name":"cart","properties":{"item_count":1},"# + ids + "}").utf8))
        #expect(checker.check(screen).findings.isEmpty)
        let identify = try JSONParser.parse(Array(#"{"type":"identify","userId":"u","traits":{"loyalty_tier":"gold"},"messageId":"m"}"#.utf8))
        #expect(checker.check(identify).findings.isEmpty)
    }
}
