import Foundation
import Testing
@testable import _AnnaGeneratorCore
@testable import _AnnaGovernance

/// Names and descriptions that try to break the YAML: every one reads back, with
/// Anna's parser and with a YAML 1.1 reader, as exactly the text in the plan.
@Suite struct HostileImportTests {
    static let hostileTexts = [
        "Colons: quotes \" and ' # hash\nsecond line", "  leading spaces", "trailing space ", "yes", "No", "on", "off",
        "null", "~", "true", "1.5", "0x1F", "- dash", "? question", "[flow]", "{map}", "&anchor", "*alias", "!tag",
        "%directive", "@at", "`tick`", "a: b", "a #b", "café 日本 🎉", "bidi \u{202E}evil", "zero\u{200B}width",
        "nul\u{0}byte", "bell\u{07}", "line\u{2028}separator", "tab\tinside", "back\\slash", "'single'", "\"double\"",
        "", " ", "#", ":", "|", ">", "-", "<< merge",
    ]

    private func plan(descriptions: [String]) -> String {
        var properties: [String] = []
        for (index, text) in descriptions.enumerated() {
            properties.append("\"p\(index)\": {\"type\": \"string\", \"description\": \(Self.jsonString(text))}")
        }
        return ImportFixtures.event("{" + properties.joined(separator: ", ") + "}")
    }

    static func jsonString(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    @Test func descriptionsReadBackExactlyWithAnnasParser() throws {
        let result = try ImportFixtures.importText(plan(descriptions: Self.hostileTexts))
        let root = try YAMLParser().parse(Array(result.spec.utf8), file: "hostile.anna.yml")
        let parameters = try #require(Self.mapping(root, path: ["events", "Opened", "parameters"]))
        for (index, text) in Self.hostileTexts.enumerated() {
            let parameter = parameters.first { $0.key == "p\(index)" }?.value
            let description = parameter.flatMap { Self.mapping($0, path: [])?.first { $0.key == "description" }?.value }
            let blank = text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            if case .scalar(let value, _) = description?.content {
                #expect(value == text)
            } else {
                #expect(blank, "description \(index) \(text.debugDescription) was lost")
            }
        }
    }

    /// PyYAML reads YAML 1.1, where yes/no/on/off are booleans and 0x1F a number.
    @Test func descriptionsAndNamesReadBackExactlyWithAYAML11Reader() throws {
        let names = ["yes", "No", "on", "true", "null", "Off", "a b", "Order Completed"]
        var rules: [String] = []
        for name in names {
            rules.append("{\"key\": \(Self.jsonString(name)), \"type\": \"TRACK\", \"jsonSchema\": {\"description\": \(Self.jsonString(name + ": #x"))}}")
        }
        let result = try ImportFixtures.importText("{\"rules\": [\(rules.joined(separator: ", "))]}")
        let script = """
            import json, sys, yaml
            spec = yaml.safe_load(sys.stdin.read())
            print(json.dumps([[k, v.get("description")] for k, v in spec["events"].items()]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(result.spec.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 with PyYAML is needed (.ci/run installs it)")
        let pairs = try #require(try JSONSerialization.jsonObject(with: data) as? [[String]])
        #expect(pairs.map { $0[0] } == names)
        #expect(pairs.map { $0[1] } == names.map { $0 + ": #x" })
    }

    @Test func hostileNamesAreConvertedAndCollisionsResolved() throws {
        let result = try ImportFixtures.importPlan("hostile.json")
        let root = try YAMLParser().parse(Array(result.spec.utf8), file: "hostile.anna.yml")
        let events = try #require(Self.mapping(root, path: ["events"])).map(\.key)
        #expect(events == ["event42TerribleEventName3", "yes", "Order Completed", "orderCompleted2", "descriptionEvent"])
        let parameters = try #require(Self.mapping(root, path: ["events", "yes", "parameters"])).map(\.key)
        #expect(parameters == ["no", "on", "aB", "tag", "cafe", "parameter", "order_id", "orderId2", "selfValue", "dash"])
        let lines = ImportFixtures.lines(result)
        #expect(lines.contains("27:15: warning: parameter 'orderId' of event 'yes' is written as 'orderId2' and sent under that name: 'order_id' and 'orderId' both become 'orderId' in Swift"))
        #expect(lines.contains("36:14: warning: event 'order_completed' is written as 'orderCompleted2' and sent under that name: 'Order Completed' and 'order_completed' both become 'orderCompleted' in Swift"))
        // A screen keeps its name on the wire through name:, so converting it loses nothing.
        #expect(lines.contains("38:14: note: screen 'Sign Up: Step 1' is written as 'signUpStep1' with name: 'Sign Up: Step 1', so it is still sent as 'Sign Up: Step 1'"))
        #expect(result.spec.contains("screens:\n  signUpStep1:\n    name: \"Sign Up: Step 1\"\n"))
    }

    @Test func hostilePlanNameStaysInTheHeaderComment() throws {
        let result = try ImportFixtures.importText("{\"display_name\": \"evil\\nanna: 2\\u2028x\", \"rules\": {\"events\": []}}")
        #expect(result.spec.contains("(Segment tracking plan \"evil anna: 2 x\")\n"))
        #expect(AnnaGenerator().lint(Array(result.spec.utf8), file: "x.anna.yml").isEmpty)
    }

    @Test func namesWithLineBreaksGiveOneLineDiagnostics() throws {
        let result = try ImportFixtures.importText(ImportFixtures.event("{\"a\\nb\\u202e\": {\"type\": \"string\"}}"))
        #expect(ImportFixtures.lines(result) == [
            "2:50: warning: parameter name 'a\\u{A}b\\u{202E}' of event 'Opened' is not a valid Anna name (ASCII letters, digits, spaces, '_', '-', '.', starting with a letter); it is written as 'aB' and sent under that name",
        ])
    }

    static func mapping(_ node: YAMLNode, path: [String]) -> [YAMLPair]? {
        guard case .mapping(let pairs) = node.content else { return nil }
        guard let first = path.first else { return pairs }
        guard let next = pairs.first(where: { $0.key == first })?.value else { return nil }
        return mapping(next, path: Array(path.dropFirst()))
    }
}
