import Foundation
import PackagePlugin

/// `swift package anna lint` and `swift package anna generate`: the generator on
/// demand, for checking specs without a build or for committing generated code.
///
/// ```
/// swift package anna lint [--target NAME]
/// swift package --allow-writing-to-package-directory anna generate [--target NAME] [--output DIR]
/// ```
/// `generate` writes next to each target's sources into `AnnaGenerated/` unless
/// `--output` names another folder. Use it instead of the build plugin, not with it.
@main
struct AnnaCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let output = extractor.extractOption(named: "output").last
        let verb = extractor.remainingArguments.first ?? "lint"
        guard verb == "lint" || verb == "generate" else {
            throw CommandError("unknown command '\(verb)'; use 'lint' or 'generate'")
        }
        let targets = try targetNames.isEmpty
            ? context.package.targets
            : context.package.targets(named: targetNames)
        let tool = try context.tool(named: "anna").url
        var failed = false
        for case let target as SourceModuleTarget in targets {
            let specs = target.sourceFiles.map(\.url)
                .filter { SpecFileNaming.isSpec($0.lastPathComponent) }
                .map(\.path)
                .sorted()
            guard !specs.isEmpty else { continue }
            var arguments = [verb] + specs
            if verb == "generate" {
                let folder = output.map { URL(fileURLWithPath: $0, relativeTo: context.package.directoryURL) }
                    ?? target.directoryURL.appending(path: "AnnaGenerated", directoryHint: .isDirectory)
                arguments += ["--output", folder.path]
            }
            let process = Process()
            process.executableURL = tool
            process.arguments = arguments
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 { failed = true }
            if verb == "generate" && process.terminationStatus == 0 {
                print("Anna: generated Swift for \(specs.count) spec(s) of \(target.name)")
            }
        }
        if failed { throw CommandError("some specs have errors; see the messages above") }
    }
}

struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
