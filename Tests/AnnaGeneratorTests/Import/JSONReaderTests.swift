import Foundation
import Testing
@testable import _AnnaGeneratorCore
@testable import _AnnaGovernance

/// The plan reader's JSON: values with their line and column, and every malformed
/// input a located error rather than a crash.
@Suite struct JSONReaderTests {
    private func parse(_ text: String) throws -> JSONNode {
        try JSONReader.parse(Array(text.utf8), file: "plan.json")
    }

    private func error(_ text: String) -> String? {
        do {
            _ = try JSONReader.parse(Array(text.utf8), file: "plan.json")
            return nil
        } catch {
            return error.diagnostics.first?.descriptionWithoutFile
        }
    }

    @Test func valuesKnowWhereTheyAre() throws {
        let root = try parse("{\n  \"a\": [1, -2.5e1, true],\n  \"é\": {\"b\": null},\n    \"c\": \"x\"\n}")
        #expect(root.location.line == 1 && root.location.column == 1)
        let members = try #require(root.members)
        #expect(members.map(\.key) == ["a", "é", "c"])
        #expect(members[0].keyLocation == SourceLocation(file: "plan.json", line: 2, column: 3))
        #expect(members[0].value.location.column == 8)
        #expect(members[0].value.elements?.map(\.number) == [1, -25, nil])
        // Columns count characters, not UTF-8 bytes: "é" is one column wide.
        #expect(members[1].value.location == SourceLocation(file: "plan.json", line: 3, column: 8))
        #expect(members[2].keyLocation == SourceLocation(file: "plan.json", line: 4, column: 5))
        #expect(root["é"]?["b"]?.content == .null)
    }

    @Test func stringEscapesAndSurrogatePairs() throws {
        let node = try parse(#"["a\"b\\c\/d\n\t\u00e9\ud83c\udf89\u202e"]"#)
        #expect(node.elements?.first?.string == "a\"b\\c/d\n\té🎉\u{202E}")
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let node = try JSONReader.parse([0xEF, 0xBB, 0xBF] + Array("{\"a\": 1}".utf8), file: "plan.json")
        #expect(node["a"]?.number == 1)
    }

    @Test(arguments: [
        ("{\"a\": 1,}", "1:9: error: expected a key in double quotes (the file is not valid JSON)"),
        ("{\n  \"a\" 1\n}", "2:7: error: expected ':' after the key \"a\" (the file is not valid JSON)"),
        ("[1, 2", "1:6: error: the file ends inside an array; close it with ']' (the file is not valid JSON)"),
        ("{\"a\": tru}", "1:7: error: unknown word; JSON has true, false and null, and strings in double quotes (the file is not valid JSON)"),
        ("\"abc", "1:5: error: the file ends inside a string; close it with '\"' (the file is not valid JSON)"),
        ("\"a\nb\"", "1:3: error: a control character inside a string; write it as an escape such as \\n (the file is not valid JSON)"),
        ("[\"\\ud83c\"]", "1:3: error: a \\u escape of a high surrogate must be followed by its low surrogate (the file is not valid JSON)"),
        ("[\"\\x\"]", "1:3: error: unknown escape '\\x'; JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX (the file is not valid JSON)"),
        ("[01]", "1:3: error: expected ',' or ']' after an element of an array (the file is not valid JSON)"),
        ("{} {}", "1:4: error: unexpected text after the JSON value; a plan file holds one object (the file is not valid JSON)"),
        ("", "1:1: error: the file ends where a value should be (the file is not valid JSON)"),
        ("{'a': 1}", "1:2: error: expected a key in double quotes (the file is not valid JSON)"),
    ])
    func malformedJSONIsALocatedError(_ text: String, _ expected: String) {
        #expect(error(text) == expected)
    }

    @Test func invalidUTF8IsALocatedError() {
        do {
            _ = try JSONReader.parse(Array("[\"a".utf8) + [0xFF] + Array("\"]".utf8), file: "plan.json")
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.diagnostics.first?.descriptionWithoutFile == "1:5: error: a string holds bytes that are not UTF-8 (the file is not valid JSON)")
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(error(deep)?.contains("nesting deeper than \(JSONReader.maxDepth) levels") == true)
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(error(fine) == nil)
    }

    /// Every prefix of a real plan is either JSON or a located error: no input crashes.
    @Test func everyTruncationOfAPlanIsHandled() throws {
        let bytes = try Fixtures.bytes(Fixtures.directory.appending(path: "Import/ecommerce-public-api.json"))
        var errors = 0
        for length in stride(from: 0, to: bytes.count, by: 7) {
            do {
                _ = try JSONReader.parse(Array(bytes[..<length]), file: "plan.json")
            } catch {
                errors += 1
                #expect(error.diagnostics.count == 1 && error.diagnostics[0].location.line >= 1)
            }
        }
        #expect(errors > 0)
    }
}
