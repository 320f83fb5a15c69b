import ArgumentParser
import Foundation
import _AnnaGeneratorCore
import _AnnaGovernance

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Classifies the changes between two versions of tracking specs as breaking or compatible.",
        discussion: """
            anna diff OLD NEW compares two spec files, or two folders whose specs are paired by \
            relative path. anna diff --base REV PATH... compares each spec file or folder with \
            its version at git revision REV. Each change names the smallest version bump it \
            needs (SchemaVer: major, minor, patch); a spec that declares version: fails when \
            its version, or an event's own, is lower than its changes need. Exit status: 0 no \
            breaking change, 1 breaking changes (unless --allow-breaking) or a version too low, \
            2 an invalid spec or bad input.
            """
    )

    /// `SpecComparison.OutputFormat`, as an argument.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, github

        var output: SpecComparison.OutputFormat {
            switch self {
            case .text: .text
            case .json: .json
            case .github: .github
            }
        }
    }

    @Argument(help: "OLD and NEW (files or folders), or with --base the paths to compare.")
    var paths: [String]

    @Option(help: "Compare the paths with their versions at this git revision.")
    var base: String?

    @Option(help: "text (default), json, or github (GitHub Actions annotations).")
    var format: Format = .text

    @Flag(help: "Exit 0 even when a change is breaking.")
    var allowBreaking = false

    func run() throws {
        let old: [SpecComparison.Source]
        let new: [SpecComparison.Source]
        do {
            if let base {
                guard !paths.isEmpty else { throw SpecComparison.InputError("give the spec files or folders to compare with \(base)") }
                (old, new) = try SpecComparison.sources(at: base, paths: paths)
            } else {
                guard paths.count == 2 else {
                    throw SpecComparison.InputError("give OLD and NEW (two spec files or two folders), or --base REV and the paths")
                }
                (old, new) = try SpecComparison.sources(old: paths[0], new: paths[1])
            }
        } catch let error as SpecComparison.InputError {
            FileHandle.standardError.write(Data("anna diff: error: \(error.message)\n".utf8))
            throw ExitCode(2)
        }
        let result = SpecComparison().compare(old: old, new: new)
        guard result.errors.isEmpty else {
            report(result.errors)
            FileHandle.standardError.write(Data("anna diff: error: a compared spec is invalid; fix it (anna lint) and run the diff again\n".utf8))
            throw ExitCode(2)
        }
        print(result.rendered(as: format.output, revision: base), terminator: "")
        // A declared version too low fails even with --allow-breaking: an allowed
        // breaking change still needs its major version.
        if !result.versionFindings.isEmpty { throw ExitCode.failure }
        if result.breakingCount > 0 && !allowBreaking { throw ExitCode.failure }
    }
}
