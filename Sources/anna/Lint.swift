import ArgumentParser
import Foundation
import _AnnaGeneratorCore

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Checks tracking specs and prints every problem as path:line:column: error: message.",
        discussion: """
            The specs given are checked together as the specs of one target, which share one Swift namespace: \
            a type, event, screen, trait or global declared by two of them is an error at the second. \
            Exits with 1 when any spec has an error.
            """
    )

    @Argument(help: "Tracking spec files (*.anna.yml) of one target.")
    var specs: [String]

    func run() throws {
        var failed = false
        var valid: [TrackingSpec] = []
        for spec in specs {
            do throws(SpecError) {
                let (checked, diagnostics) = AnnaGenerator().check(try AnnaGenerator.read(spec), file: spec)
                report(diagnostics)
                failed = failed || diagnostics.contains { $0.severity == .error }
                if let checked { valid.append(checked) }
            } catch {
                report(error.diagnostics)
                failed = true
            }
        }
        let shared = TrackingSpec.sharedNamespaceDiagnostics(valid)
        report(shared)
        if failed || !shared.isEmpty { throw ExitCode.failure }
    }
}
