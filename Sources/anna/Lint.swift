import ArgumentParser
import Foundation
import _AnnaGeneratorCore

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Checks tracking specs and prints every problem as path:line:column: error: message.",
        discussion: "Exits with 1 when any spec has an error."
    )

    @Argument(help: "Tracking spec files (*.anna.yml).")
    var specs: [String]

    func run() throws {
        var failed = false
        for spec in specs {
            do throws(SpecError) {
                let diagnostics = AnnaGenerator().lint(try AnnaGenerator.read(spec), file: spec)
                report(diagnostics)
                failed = failed || diagnostics.contains { $0.severity == .error }
            } catch {
                report(error.diagnostics)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
