import Foundation
import PackagePlugin

/// `swift package anna lint|generate|diff|docs|privacy|import`: the generator and the
/// governance commands on the package's specs, without a build.
///
/// ```
/// swift package --allow-writing-to-package-directory anna lint [--target NAME]
/// swift package --allow-writing-to-package-directory anna generate [--target NAME] [--output DIR] [--check]
/// swift package --allow-writing-to-package-directory anna diff --base REV [--format text|json|github] [--allow-breaking] [--target NAME]
/// swift package --allow-writing-to-package-directory anna docs --output DIR [--target NAME]
/// swift package --allow-writing-to-package-directory anna privacy [--format text|json|plist] [--target NAME]
/// swift package --allow-writing-to-package-directory anna import PLAN.json --output Sources/App/plan.anna.yml [--namespace N] [--strict]
/// ```
/// `generate` writes next to each target's sources into `AnnaGenerated/` unless
/// `--output` names another folder; with `--check` it writes nothing and fails when
/// a generated file is missing or out of date. Use it instead of the build plugin,
/// not with it. A target's specs are the `*.anna.yml` files in its folder, those it
/// excludes included: a target without the build plugin excludes its specs, so that
/// SwiftPM does not warn about files it does not know.
/// The other commands take every spec of the chosen targets at once; options the
/// plugin does not read are passed to `anna`. `import` reads a tracking plan, not the
/// package's specs; its paths are relative to the package.
@main
struct AnnaCommand: CommandPlugin {
    static let verbs = ["lint", "generate", "diff", "docs", "privacy", "import"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let output = extractor.extractOption(named: "output").last
        var remaining = extractor.remainingArguments
        let verb = remaining.isEmpty ? "lint" : remaining.removeFirst()
        guard Self.verbs.contains(verb) else {
            throw CommandError("unknown command '\(verb)'; use \(Self.verbs.map { "'\($0)'" }.joined(separator: ", "))")
        }
        if verb == "import" {
            let package = context.package.directoryURL
            // The plan is the one argument that is not an option or an option's value.
            var arguments = ["import"]
            var takesValue = false
            for argument in remaining {
                if takesValue || argument.hasPrefix("-") {
                    arguments.append(argument)
                    takesValue = !takesValue && ["--namespace", "--schema"].contains(argument)
                } else {
                    arguments.append(URL(fileURLWithPath: argument, relativeTo: package).path)
                }
            }
            if let output { arguments += ["--output", URL(fileURLWithPath: output, relativeTo: package).path] }
            let status = try run(try context.tool(named: "anna").url, arguments)
            if status != 0 { throw CommandError("anna import exited with \(status)") }
            return
        }
        let targets = try targetNames.isEmpty
            ? context.package.targets
            : context.package.targets(named: targetNames)
        let tool = try context.tool(named: "anna").url
        var specsByTarget: [(SourceModuleTarget, [String])] = []
        for case let target as SourceModuleTarget in targets {
            let specs = Self.specs(of: target)
            if !specs.isEmpty { specsByTarget.append((target, specs)) }
        }
        if verb == "lint" || verb == "generate" {
            var failed = false
            for (target, specs) in specsByTarget {
                var arguments = [verb] + remaining + specs
                if verb == "generate" {
                    let folder = output.map { URL(fileURLWithPath: $0, relativeTo: context.package.directoryURL) }
                        ?? target.directoryURL.appending(path: "AnnaGenerated", directoryHint: .isDirectory)
                    arguments += ["--output", folder.path]
                }
                let status = try run(tool, arguments)
                if status != 0 { failed = true }
                if verb == "generate" && status == 0 {
                    let done = remaining.contains("--check") ? "Swift up to date" : "generated Swift"
                    print("Anna: \(done) for \(specs.count) spec(s) of \(target.name)")
                }
            }
            if failed && verb == "generate" && remaining.contains("--check") {
                throw CommandError(
                    "generated code is missing or out of date; run `swift package --allow-writing-to-package-directory anna generate` and commit it")
            }
            if failed { throw CommandError("some specs have errors; see the messages above") }
            return
        }
        let specs = specsByTarget.flatMap(\.1)
        guard !specs.isEmpty else { throw CommandError("no tracking specs (*.anna.yml) in the chosen targets") }
        var arguments = [verb] + remaining + specs
        if verb == "docs" {
            guard let output else { throw CommandError("give the folder to write the plan into: anna docs --output DIR") }
            arguments += ["--output", URL(fileURLWithPath: output, relativeTo: context.package.directoryURL).path]
        }
        let status = try run(tool, arguments)
        if status != 0 { throw CommandError("anna \(verb) exited with \(status)") }
    }

    /// A target's specs: its source files named `*.anna.yml` or `*.anna.yaml`, and those
    /// in its folder that it excludes, sorted by path.
    static func specs(of target: SourceModuleTarget) -> [String] {
        var specs = Set<String>()
        for file in target.sourceFiles.map(\.url) where SpecFileNaming.isSpec(file.lastPathComponent) {
            specs.insert(file.resolvingSymlinksInPath().path)
        }
        let files = FileManager.default.enumerator(
            at: target.directoryURL, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles, .skipsPackageDescendants])
        while let file = files?.nextObject() as? URL {
            if SpecFileNaming.isSpec(file.lastPathComponent) { specs.insert(file.resolvingSymlinksInPath().path) }
        }
        return specs.sorted()
    }

    private func run(_ tool: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
