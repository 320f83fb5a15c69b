import AnnaRules
import Anna
import Testing
@testable import _AnnaGeneratorCore

@Suite struct NamingTests {
    @Test(arguments: [
        ("categoryAdded", "categoryAdded"), ("Order Completed", "orderCompleted"), ("order_completed", "orderCompleted"),
        ("order-shipped", "orderShipped"), ("order.refunded.v2", "orderRefundedV2"), ("URLOpened", "urlOpened"),
        ("ID", "id"), ("userID", "userID"), ("HTTPStatus", "httpStatus"), ("a", "a"), ("X11 Forwarded", "x11Forwarded"),
    ])
    func lowerCamelCase(_ name: String, _ expected: String) {
        #expect(SwiftNaming.lowerCamelCase(name) == expected)
    }

    @Test(arguments: [
        ("category source", "CategorySource"), ("payment-method.kind", "PaymentMethodKind"), ("CategorySource", "CategorySource"),
    ])
    func upperCamelCase(_ name: String, _ expected: String) {
        #expect(SwiftNaming.upperCamelCase(name) == expected)
    }

    @Test(arguments: [
        ("categoryAdded", "category_added"), ("URLOpened", "url_opened"), ("categoryID2", "category_id2"),
        ("Order Completed", "order_completed"), ("HTTPStatusCode", "http_status_code"), ("simple", "simple"),
        ("already_snake", "already_snake"), ("a.b-c", "a_b_c"),
    ])
    func snakeCaseMatchesTheRuntimeMapper(_ name: String, _ expected: String) {
        #expect(SnakeCaseEventMapper.snakeCase(name) == expected)
        #expect(ProviderProfile.firebase.mapped(name) == expected)
    }

    @Test func keywordsAreEscapedNotRejected() {
        #expect(SwiftNaming.escaped("default") == "`default`")
        #expect(SwiftNaming.escaped("import") == "`import`")
        #expect(SwiftNaming.escaped("title") == "title")
    }

    @Test func suggestionsFindCloseNames() {
        #expect(Suggestion.closest(to: "strng", in: ["string", "int"]) == "string")
        #expect(Suggestion.closest(to: "zzz", in: ["string", "int"]) == nil)
        #expect(Suggestion.hint(for: "x", in: ["a", "b"]) == "; expected one of: a, b")
    }

    @Test func stringLiteralsCannotBeBrokenOutOf() {
        #expect(SwiftLiteral.string("a\"b\\c\n\u{202E}\0") == "\"a\\\"b\\\\c\\n\\u{202E}\\u{0}\"")
        #expect(SwiftLiteral.string("\\(x)") == "\"\\\\(x)\"")
        #expect(SwiftLiteral.commentLines("one\r\ntwo\u{2028}three\u{202E}") == ["one", "two", "three\\u{202E}"])
    }
}
