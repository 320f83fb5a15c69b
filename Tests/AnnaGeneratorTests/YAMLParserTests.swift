import AnnaRules
import Testing
@testable import _AnnaGeneratorCore

@Suite struct YAMLParserTests {
    func parse(_ text: String) throws(SpecError) -> YAMLNode {
        try YAMLParser().parse(Array(text.utf8), file: "test.yml")
    }

    func mapping(_ node: YAMLNode) -> [YAMLPair] {
        if case .mapping(let pairs) = node.content { return pairs }
        Issue.record("expected a mapping, got \(node.kindDescription)")
        return []
    }

    @Test func nodesKeepLineAndColumn() throws {
        let root = try parse("anna: 1\nevents:\n  opened:\n    description: Hi\n")
        let pairs = mapping(root)
        #expect(pairs.map(\.key) == ["anna", "events"])
        #expect(pairs[1].keyLocation == SourceLocation(file: "test.yml", line: 2, column: 1))
        let opened = mapping(pairs[1].value)[0]
        #expect(opened.keyLocation.line == 3 && opened.keyLocation.column == 3)
        let description = mapping(opened.value)[0]
        #expect(description.value.location == SourceLocation(file: "test.yml", line: 4, column: 18))
        #expect(description.value.scalarValue == .string("Hi"))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let root = try parse("é: ü\nkey: value\n")
        #expect(mapping(root)[0].value.location.column == 4)
    }

    @Test func aliasesAreCopiesAtTheAliasLocation() throws {
        let root = try parse("a: &x {k: v}\nb: *x\n")
        let pairs = mapping(root)
        #expect(mapping(pairs[1].value).map(\.key) == ["k"])
        #expect(pairs[1].value.location.line == 2)
    }

    @Test func mergeKeysAddMissingKeysOnly() throws {
        let root = try parse("base: &b {a: 1, b: 2}\nderived:\n  <<: *b\n  b: 3\n")
        let derived = mapping(mapping(root)[1].value)
        #expect(derived.map(\.key) == ["b", "a"])
        #expect(derived[0].value.scalarValue == .int(3))
    }

    @Test func mergeOfAListOfMappings() throws {
        let root = try parse("x: &x {a: 1}\ny: &y {a: 2, b: 2}\nz:\n  <<: [*x, *y]\n")
        let z = mapping(mapping(root)[2].value)
        #expect(z.map(\.key) == ["a", "b"])
        #expect(z[0].value.scalarValue == .int(1))
    }

    @Test(arguments: [
        ("true", ScalarValue.bool(true)), ("False", .bool(false)), ("yes", .string("yes")), ("no", .string("no")),
        ("on", .string("on")), ("~", .null), ("null", .null), ("", .null), ("12", .int(12)), ("-3", .int(-3)),
        ("0x1F", .int(31)), ("0o17", .int(15)), ("1.5", .double(1.5)), ("1e3", .double(1000)), (".5", .double(0.5)),
        ("1.2.3", .string("1.2.3")), ("0x", .string("0x")), ("12abc", .string("12abc")), ("-.inf", .double(-.infinity)),
        ("99999999999999999999", .double(1e20)), ("+7", .int(7)), ("0", .int(0)), ("0xg", .string("0xg")),
        ("Truth", .string("Truth")), ("Title of the item", .string("Title of the item")), ("é", .string("é")),
    ])
    func plainScalarsResolveByTheCoreSchema(_ text: String, _ expected: ScalarValue) throws {
        let root = try parse("k: \(text)\n")
        #expect(mapping(root)[0].value.scalarValue == expected)
    }

    @Test func quotedScalarsAreStrings() throws {
        let root = try parse("a: \"1\"\nb: 'true'\nc: !!str 2\nd: |\n  3\n")
        #expect(mapping(root).map(\.value.scalarValue) == [.string("1"), .string("true"), .string("2"), .string("3\n")])
    }

    @Test func utf16WithByteOrderMarkIsRead() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "k: v\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let root = try YAMLParser().parse(bytes, file: "utf16.yml")
        #expect(mapping(root)[0].value.scalarValue == .string("v"))
    }

    /// Found by scripts/fuzz.sh: reader errors come as a byte offset, and in UTF-16 input
    /// that offset must be counted in characters of the file's own encoding.
    @Test func readerErrorInUTF16IsLocatedInCharacters() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in Array("anna: 1\nevents: {".utf16) + [0xDC00] + Array("}\n".utf16) {
            bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        do {
            _ = try YAMLParser().parse(bytes, file: "utf16.yml")
            Issue.record("a lone low surrogate parsed")
        } catch {
            let location = error.diagnostics[0].location
            #expect("\(location.line):\(location.column)" == "2:10", "\(error.diagnostics[0])")
        }
    }

    @Test(arguments: [
        ("k: [1, 2", "2:1"), ("k: {a: 1\n", "2:1"), ("\"open", "1:6"), ("a: b: c", "1:5"), ("k: *nope", "1:4"),
        ("a: 1\na: 2", "2:1"), ("- a\n---\n- b", "2:1"), ("", "1:1"), ("k: !!int 3", "1:4"), ("? [a]\n: b", "1:3"),
    ])
    func malformedInputGivesOneLocatedError(_ text: String, _ location: String) {
        do {
            _ = try parse(text)
            Issue.record("'\(text)' parsed")
        } catch {
            #expect(error.diagnostics.count == 1)
            let diagnostic = error.diagnostics[0]
            #expect("\(diagnostic.location.line):\(diagnostic.location.column)" == location, "\(diagnostic)")
            #expect(diagnostic.severity == .error)
        }
    }

    @Test func deepNestingIsRefusedNotOverflowed() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: SpecError.self) { try parse(deep) }
    }

    /// A plan of thousands of events is one large document, nested a few levels deep.
    /// Each node counts once against ``YAMLParser/maximumNodes``: the limit was counted
    /// again at every level a node sits under, so a 2,000-event plan (about 80,000
    /// nodes) was refused as if it had been an alias bomb (issue 51).
    @Test func aLargePlanIsNotMistakenForAnAliasBomb() throws {
        var text = "anna: 1\nevents:\n"
        for index in 0..<2_500 {
            text += "  event\(index):\n    description: Event \(index).\n    parameters:\n"
            for parameter in 0..<6 {
                text += "      p\(parameter): { type: string, maxLength: 40, description: Parameter \(parameter). }\n"
            }
        }
        let root = try parse(text)
        #expect(root.size > 60_000)
        #expect(root.size < YAMLParser().maximumNodes)
    }

    @Test func exponentialAliasesAreRefused() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...8 {
            text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        do {
            _ = try parse(text)
            Issue.record("a billion laughs parsed")
        } catch {
            #expect(error.diagnostics[0].message.contains("expands to more than"))
        }
    }
}
