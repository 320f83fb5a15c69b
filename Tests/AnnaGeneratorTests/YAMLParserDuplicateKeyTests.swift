import Testing
@testable import _AnnaGeneratorCore

/// The parser finds duplicate keys by scanning a small mapping and through an
/// index once a mapping is large; both must report the same first place.
@Suite struct YAMLParserDuplicateKeyTests {
    /// A mapping of `count` keys `k0`, `k1`, … one per line, then `extra` lines.
    func mapping(keys count: Int, then extra: String) -> [UInt8] {
        Array(((0..<count).map { "k\($0): \($0)\n" }.joined() + extra).utf8)
    }

    func duplicateMessage(_ bytes: [UInt8]) -> String? {
        do {
            _ = try YAMLParser().parse(bytes, file: "t.yml")
            return nil
        } catch {
            return error.diagnostics.first.map { "\($0.location.line):\($0.location.column): \($0.message)" }
        }
    }

    @Test(arguments: [1, 15, 16, 17, 18, 40, 1_000])
    func aDuplicateIsFoundAtAnySize(keys: Int) {
        // Duplicates the first key and, separately, the last one.
        #expect(duplicateMessage(mapping(keys: keys, then: "k0: again\n"))
            == "\(keys + 1):1: duplicate key 'k0' (first at line 1, column 1); remove one of them")
        #expect(duplicateMessage(mapping(keys: keys, then: "k\(keys - 1): again\n"))
            == "\(keys + 1):1: duplicate key 'k\(keys - 1)' (first at line \(keys), column 1); remove one of them")
        #expect(duplicateMessage(mapping(keys: keys, then: "fresh: yes\n")) == nil)
    }

    @Test(arguments: [2, 30])
    func mergedKeysDoNotReplaceExplicitOnesInLargeMappings(keys: Int) throws {
        let text = "base: &b {k0: merged, extra: merged}\nderived:\n  <<: *b\n"
            + (0..<keys).map { "  k\($0): own\n" }.joined()
        let root = try YAMLParser().parse(Array(text.utf8), file: "t.yml")
        guard case .mapping(let top) = root.content, case .mapping(let derived) = top[1].value.content else {
            Issue.record("expected mappings")
            return
        }
        #expect(derived.count == keys + 1)
        #expect(derived.first { $0.key == "k0" }?.value.scalarValue == .string("own"))
        #expect(derived.last?.key == "extra")
    }
}
