import Foundation
import Testing
import _AnnaGeneratorCore
import _AnnaGovernance
@testable import _AnnaInspector

/// The Iglu schemas `anna export` writes, checked by a JSON Schema implementation the
/// project does not write (Python's `jsonschema`), accept and refuse exactly the
/// calls the inspector accepts and refuses, over a corpus generated from a spec with
/// every constraint kind (export-agreement.anna.yml).
///
/// The schemas declare Iglu's self-describing meta-schema, which is draft-04 with
/// `self`; they use only keywords that mean the same in drafts 4 to 7, save one:
/// draft 4 counts `3.0` as no integer, draft 6 and later (and the inspector) as one.
/// So `Draft7Validator` decides the calls, and `Draft4Validator` must agree on every
/// call but those sending a whole number written with a fraction to an `int`.
@Suite struct ExportAgreementTests {
    static let spec = Fixtures.folder.appending(path: "export-agreement.anna.yml").path

    /// A call's properties, and whether it sends a whole number with a fraction to an `int`.
    struct Case {
        var event: String
        var properties: Node
        var integralFloat = false
    }

    @Test func jsonschemaAcceptsExactlyWhatTheInspectorAccepts() async throws {
        let (status, pythonOK) = Self.python(["-c", "import jsonschema"], input: "")
        try #require(status == 0, "needs python3 with jsonschema (pip install jsonschema): \(pythonOK)")
        let (spec, diagnostics) = AnnaGenerator().check(try AnnaGenerator.read(Self.spec), file: Self.spec)
        let checked = try #require(spec, "\(diagnostics)")
        let folder = FileManager.default.temporaryDirectory.appending(path: "anna-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var schemaPaths: [String: String] = [:]
        for file in try PlanExporter().igluSchemas([checked], vendor: "com.example") {
            let url = folder.appending(path: file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
            schemaPaths[file.path.split(separator: "/")[2].replacingOccurrences(of: "_", with: " ")] = url.path
        }
        #expect(schemaPaths.keys.sorted() == ["Order Completed", "app opened"])
        let corpus = Self.corpus()
        #expect(corpus.count >= 200)
        let checker = CallChecker(plan: InspectionPlan(specs: [checked]))
        var lines = ""
        var inspector: [Bool] = []
        for item in corpus {
            let properties = item.properties.json
            let call = #"{"type":"track","event":"\#(item.event == "app opened" ? "app_opened" : item.event)","messageId":"m-1","anonymousId":"a-1","timestamp":"2026-01-01T00:00:00Z","context":{},"properties":\#(properties)}"#
            let result = checker.check(try JSONParser.parse(Array(call.utf8)), type: nil)
            inspector.append(!result.findings.contains { $0.severity == .error })
            lines += (schemaPaths[item.event] ?? "") + "\t" + properties + "\n"
        }
        let script = """
            import json, sys
            from jsonschema import Draft4Validator, Draft7Validator
            cache = {}
            for line in sys.stdin:
                path, instance = line.rstrip("\\n").split("\\t", 1)
                if path not in cache:
                    schema = json.load(open(path))
                    cache[path] = (Draft7Validator(schema), Draft4Validator(schema))
                d7, d4 = cache[path]
                value = json.loads(instance)
                print(int(d7.is_valid(value)), int(d4.is_valid(value)))
            """
        let (exit, output) = Self.python(["-c", script], input: lines)
        try #require(exit == 0, "\(output)")
        let verdicts = output.split(separator: "\n").map { $0.split(separator: " ").map { $0 == "1" } }
        try #require(verdicts.count == corpus.count)
        var accepted = 0
        for (index, item) in corpus.enumerated() {
            let draft7 = verdicts[index][0], draft4 = verdicts[index][1]
            #expect(draft7 == inspector[index], "\(item.event) \(item.properties.json): inspector \(inspector[index]), Draft7Validator \(draft7)")
            if item.integralFloat {
                #expect(inspector[index] && !draft4, "\(item.properties.json): draft 4 refuses 3.0 as an integer")
            } else {
                #expect(draft4 == inspector[index], "\(item.event) \(item.properties.json): inspector \(inspector[index]), Draft4Validator \(draft4)")
            }
            if inspector[index] { accepted += 1 }
        }
        // Both kinds, in numbers: the corpus is not all good or all bad.
        #expect(accepted >= 60 && corpus.count - accepted >= 120, "\(accepted) accepted of \(corpus.count)")
        print("export agreement: \(corpus.count) calls, \(accepted) accepted, \(corpus.count - accepted) refused, by the inspector and Draft7Validator alike")
    }

    /// A good call of each event, then every property (at every depth) left out, set
    /// to null, and given each value of a list of good and bad ones; plus undeclared keys.
    static func corpus() -> [Case] {
        let geo = Node.object([("lat", .raw("48.85")), ("lon", .raw("2.35"))])
        let base = Node.object([
            ("order_id", .string("A-1001")), ("total", .raw("25.5")), ("count", .raw("2")), ("gift", .raw("false")),
            ("placed_at", .string("2026-01-02T03:04:05Z")), ("receipt", .string("https://example.com/r/1")),
            ("session", .string("123e4567-e89b-12d3-a456-426614174000")), ("delivery", .string("next day")), ("tier", .string("gold")),
            ("address", .object([("city", .string("Paris")), ("zip", .string("75001")), ("geo", geo)])),
            ("items", .array([.object([("sku", .string("ABC-1")), ("quantity", .raw("1")), ("price", .raw("9.99"))])])),
            ("tags", .array([.string("a"), .string("b")])), ("phone", .string("555-0100")), ("note", .string("hi")), ("theme", .string("dark")),
        ])
        let string = ["1", "true", "[]", "{}"]
        let number = [#""1""#, "true", "[1]", "{}"]
        let values: [(path: [String], good: [String], bad: [String])] = [
            (["order_id"], [#""ABCD""#, #""ABCDEFGHIJKL""#], [#""ABC""#, #""ABCDEFGHIJKLM""#, #""""#] + string),
            (["total"], ["0", "10000", "10", "0.01", "9999.99"], ["-0.01", "10000.5", "-1"] + number),
            (["count"], ["1", "50", "25"], ["0", "51", "1.5", "-3"] + number),
            (["gift"], ["true"], ["0", #""true""#, "null"]),
            (["placed_at"], [#""2026-01-02T03:04:05.123Z""#, #""2026-01-02T03:04:05+02:00""#, #""2026-01-02t03:04:05z""#, #""2016-12-31T23:59:60-08:30""#],
             [#""2026-13-01T00:00:00Z""#, #""2026-01-01""#, #""2026-01-01T00:00:00""#, #""2026-01-01 00:00:00Z""#, #""2026-01-32T00:00:00Z""#,
              #""2026-01-01T24:00:00Z""#, #""2026-01-01T00:00:00.Z""#, #""2026-01-01T00:00:00+2:00""#, "1767225600"]),
            (["receipt"], [#""mailto:a@example.com""#, #""a+b.c-d://x""#, #""urn:isbn:0451450523""#],
             [#""example.com""#, #""http://a b""#, #""1http://x""#, #"":x""#, #""http:""#, "7"]),
            (["session"], [#""123E4567-E89B-12D3-A456-426614174000""#],
             [#""123e4567e89b12d3a456426614174000""#, #""123e4567-e89b-12d3-a456-42661417400""#, #""g23e4567-e89b-12d3-a456-426614174000""#, "1"]),
            (["delivery"], [#""standard""#, #""pick up""#], [#""Standard""#, #""express""#, #""next  day""#, "1", "null"]),
            (["tier"], [#""bronze""#, #""silver""#], [#""platinum""#, #""Gold""#, "1", "[]"]),
            (["address"], [], ["1", #""Paris""#, "[]"]),
            (["address", "city"], [#""X""#, "\"" + String(repeating: "y", count: 40) + "\""], [#""""#, "\"" + String(repeating: "y", count: 41) + "\"", "1"]),
            (["address", "zip"], [#""12345""#], [#""1234""#, #""abcde""#, #""123456""#, "12345"]),
            (["address", "geo"], [], ["1", "[]", #""48,2""#]),
            (["address", "geo", "lat"], ["-90", "90", "0"], ["90.5", "-91", #""1""#, "null"]),
            (["address", "geo", "lon"], ["180", "-180"], ["181", "-180.01", "true"]),
            (["items"], ["[]", #"[{"sku":"ABC-1","quantity":2},{"sku":"XYZ-99","quantity":99,"price":0}]"#],
             ["[null]", "[1]", #"[{"sku":"ABC-1"}]"#, #"[{"sku":"ABC-1","quantity":1,"color":"red"}]"#, #"{"sku":"ABC-1","quantity":1}"#, #""ABC-1""#]),
            (["items", "0", "sku"], [#""QQQ-0""#], [#""abc-1""#, #""ABC-""#, #""AB-1""#, "1"]),
            (["items", "0", "quantity"], ["99"], ["0", "100", "1.5", #""1""#]),
            (["items", "0", "price"], ["0", "1"], ["-1", #""1""#]),
            (["tags"], ["[]", #"["x"]"#], ["[1]", "[null]", #""a""#, #"[["a"]]"#]),
            (["phone"], [#""""#], ["1"]),
            (["note"], [#""0123456789""#, #""""#], [#""0123456789A""#, "1"]),
            (["theme"], [#""light""#], [#""blue""#, "1"]),
        ]
        var cases = [Case(event: "Order Completed", properties: base)]
        for (path, good, bad) in values {
            cases.append(Case(event: "Order Completed", properties: base.removing(path)))
            cases.append(Case(event: "Order Completed", properties: base.setting(path, to: .raw("null"))))
            for value in good + bad {
                cases.append(Case(event: "Order Completed", properties: base.setting(path, to: .raw(value))))
            }
        }
        for (number, path) in [("3.0", ["count"]), ("1.0", ["items", "0", "quantity"]), ("99.0", ["items", "0", "quantity"]), ("50.0", ["count"])] {
            cases.append(Case(event: "Order Completed", properties: base.setting(path, to: .raw(number)), integralFloat: true))
        }
        for (key, path) in [("coupon", [String]()), ("country", ["address"]), ("alt", ["address", "geo"]), ("color", ["items", "0"])] {
            cases.append(Case(event: "Order Completed", properties: base.setting(path + [key], to: .string("x"))))
        }
        for properties in [#"{"cold":true}"#, #"{}"#, #"{"cold":"yes"}"#, #"{"cold":true,"theme":"light"}"#, #"{"cold":false,"theme":null}"#,
                           #"{"cold":true,"theme":"red"}"#, #"{"cold":true,"extra":1}"#, #"{"cold":null}"#] {
            cases.append(Case(event: "app opened", properties: .raw(properties)))
        }
        return cases
    }

    static func python(_ arguments: [String], input: String) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let stdout = Pipe()
        let inputFile = FileManager.default.temporaryDirectory.appending(path: "anna-export-input-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: inputFile) }
        do {
            try Data(input.utf8).write(to: inputFile)
            process.standardInput = try FileHandle(forReadingFrom: inputFile)
        } catch { return (-1, "\(error)") }
        process.standardOutput = stdout
        process.standardError = stdout
        do { try process.run() } catch { return (-1, "\(error)") }
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// A JSON value as text, kept in order, that a test can change at a path.
indirect enum Node {
    case raw(String)
    case object([(String, Node)])
    case array([Node])

    static func string(_ text: String) -> Node { .raw("\"\(text)\"") }

    var json: String {
        switch self {
        case .raw(let text): text
        case .object(let members): "{" + members.map { "\"\($0.0)\":\($0.1.json)" }.joined(separator: ",") + "}"
        case .array(let elements): "[" + elements.map(\.json).joined(separator: ",") + "]"
        }
    }

    func setting(_ path: [String], to value: Node) -> Node { changing(path[...], to: value) }
    func removing(_ path: [String]) -> Node { changing(path[...], to: nil) }

    private func changing(_ path: ArraySlice<String>, to value: Node?) -> Node {
        guard let key = path.first else { return value ?? self }
        let rest = path.dropFirst()
        switch self {
        case .object(var members):
            if let index = members.firstIndex(where: { $0.0 == key }) {
                if rest.isEmpty, value == nil {
                    members.remove(at: index)
                } else {
                    members[index].1 = members[index].1.changing(rest, to: value)
                }
            } else if rest.isEmpty, let value {
                members.append((key, value))
            }
            return .object(members)
        case .array(var elements):
            guard let index = Int(key), elements.indices.contains(index) else { return self }
            if rest.isEmpty, value == nil { elements.remove(at: index) } else { elements[index] = elements[index].changing(rest, to: value) }
            return .array(elements)
        case .raw:
            return self
        }
    }
}
