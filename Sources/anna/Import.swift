import ArgumentParser
import Foundation
import _AnnaGeneratorCore
import _AnnaGovernance

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Writes an Anna spec from a Segment tracking plan (JSON from the Public API or the Config API).",
        discussion: """
            Prints a located warning (plan.json:line:column: warning: ...) for each part of the plan \
            Anna cannot express, and writes the closest spec it can. Exit status: 0 written (with \
            or without warnings), 1 with --strict when anything did not map (the spec is still \
            written), 2 the file is not JSON, not a tracking plan, or cannot be read or written.
            """
    )

    @Argument(help: "The tracking plan: plan.json as Typewriter keeps it, or a Segment API response.")
    var plan: String

    @Option(help: "Where to write the spec (default: standard output).")
    var output: String?

    @Option(help: "The spec's namespace: (a Swift identifier).")
    var namespace: String?

    @Option(help: "The path to anna.schema.json written in the spec's header, for editors.")
    var schema = "anna.schema.json"

    @Flag(help: "Exit 1 when any part of the plan did not map.")
    var strict = false

    func run() throws {
        if let namespace, !PlanImporter.isValidNamespace(namespace) {
            FileHandle.standardError.write(Data("anna import: error: namespace '\(namespace)' is not a Swift identifier; use letters, digits and '_', starting with a letter\n".utf8))
            throw ExitCode(2)
        }
        let result: PlanImporter.Result
        do {
            result = try PlanImporter(namespace: namespace, schemaPath: schema).importPlan(AnnaGenerator.read(plan), file: plan)
        } catch {
            report(error.diagnostics)
            throw ExitCode(2)
        }
        report(result.diagnostics)
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: Data(result.spec.utf8)) else {
                FileHandle.standardError.write(Data("anna import: error: cannot write \(output)\n".utf8))
                throw ExitCode(2)
            }
        } else {
            print(result.spec, terminator: "")
        }
        if strict && result.hasWarnings { throw ExitCode.failure }
    }
}
