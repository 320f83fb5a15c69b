import Benchmark
import CYAMLBench
import Foundation
import _AnnaClientGenerator
@_spi(Benchmarks) import _AnnaGeneratorCore
import _AnnaGovernance

/// The benchmarks package's folder.
let benchmarksRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The 1,000-event spec made by `scripts/make-large-spec.py 1000`.
let largeSpecURL = benchmarksRoot.appending(path: "Fixtures/large-1000.anna.yml")

/// The 1,000-event Segment tracking plan made by `scripts/make-large-plan.py 1000`.
let largePlanURL = benchmarksRoot.appending(path: "Fixtures/large-plan-1000.json")

/// The package's `Templates/`: given as the user's templates folder, it replaces
/// every built-in template, so the generator renders through Mustache.
let templatesURL = benchmarksRoot.deletingLastPathComponent().appending(path: "Templates", directoryHint: .isDirectory)

/// Pulls every libyaml event and does nothing else: the floor any YAML-based
/// generator stands on.
func bareParse(_ bytes: [UInt8]) -> Int {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { return -1 }
    defer { yaml_parser_delete(&parser) }
    var events = 0
    bytes.withUnsafeBufferPointer { buffer in
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var event = yaml_event_t()
        while yaml_parser_parse(&parser, &event) == 1 {
            let done = event.type == YAML_STREAM_END_EVENT
            yaml_event_delete(&event)
            events += 1
            if done { break }
        }
    }
    return events
}

let benchmarks: @Sendable () -> Void = {
    let bytes: [UInt8]
    do {
        bytes = [UInt8](try Data(contentsOf: largeSpecURL))
    } catch {
        print("cannot read \(largeSpecURL.path): run python3 scripts/make-large-spec.py 1000 \(largeSpecURL.path)")
        return
    }
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 3,
        scalingFactor: .one,
        maxDuration: .seconds(10),
        maxIterations: 200
    )

    if let plan = try? Data(contentsOf: largePlanURL) {
        let planBytes = [UInt8](plan)
        // `anna import`'s work: JSON with positions, JSON Schema to types, the YAML text.
        Benchmark("anna import, 1,000-event Segment plan") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try? PlanImporter().importPlan(planBytes, file: "large-plan-1000.json"))
            }
        }
    } else {
        print("cannot read \(largePlanURL.path): run python3 scripts/make-large-plan.py 1000 \(largePlanURL.path)")
    }

    Benchmark("libyaml bare parse, 1,000 events") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(bareParse(bytes))
        }
    }

    Benchmark("YAMLParser tree, 1,000 events") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(AnnaGenerator().parseOnly(bytes, file: "large-1000.anna.yml"))
        }
    }

    Benchmark("parse + validate, 1,000 events") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(AnnaGenerator().lint(bytes, file: "large-1000.anna.yml"))
        }
    }

    // The built-in templates compiled into Swift: what `anna generate` does by default.
    Benchmark("generate Swift, compiled templates, 1,000 events") { benchmark in
        let generator = AnnaGenerator()
        for _ in benchmark.scaledIterations {
            blackHole(try? generator.generate(bytes, file: "large-1000.anna.yml"))
        }
    }

    // The same templates interpreted by swift-mustache: what `--templates DIR` does.
    Benchmark("generate Swift, Mustache templates, 1,000 events") { benchmark in
        let generator: AnnaGenerator
        do {
            generator = try AnnaGenerator(templatesDirectory: templatesURL)
        } catch {
            print("cannot load \(templatesURL.path): \(error)")
            return
        }
        for _ in benchmark.scaledIterations {
            blackHole(try? generator.generate(bytes, file: "large-1000.anna.yml"))
        }
    }

    // The same validated spec written as TypeScript and as Kotlin (issue 43): each
    // within 1.5× of the Swift benchmark above.
    for language in [ClientLanguage.typescript, .kotlin] {
        Benchmark("generate \(language == .kotlin ? "Kotlin" : "TypeScript"), 1,000 events") { benchmark in
            let generator = AnnaGenerator()
            for _ in benchmark.scaledIterations {
                blackHole(try? generator.generate(bytes, file: "large-1000.anna.yml", language: language))
            }
        }
    }
    if let typescript = try? AnnaGenerator().generate(bytes, file: "large-1000.anna.yml", language: .typescript).source {
        let stripped = strippedTypeScriptSize(typescript)
        print("TypeScript for 1,000 events: \(typescript.utf8.count) bytes, \(stripped) without comments and indentation, \(stripped / 1000) per event")
    }
}

/// A simple minification's size: doc comments, line comments and leading and
/// trailing blanks removed, lines joined. A real minifier (esbuild, terser) also
/// shortens names; the README gives its numbers.
func strippedTypeScriptSize(_ source: String) -> Int {
    var size = 0
    var inComment = false
    for raw in source.split(separator: "\n") {
        let line = raw.trimmingCharacters(in: .whitespaces)
        if inComment {
            if line.hasSuffix("*/") { inComment = false }
            continue
        }
        if line.hasPrefix("/**") || line.hasPrefix("/*") {
            inComment = !line.hasSuffix("*/")
            continue
        }
        if line.hasPrefix("//") || line.isEmpty { continue }
        size += line.utf8.count
    }
    return size
}
