import Foundation
import PackagePlugin

/// Generates Swift from every `*.anna.yml` / `*.anna.yaml` in a target, at build time.
///
/// Each spec gets a build command whose only input is the spec and whose only
/// output is its generated file, so a build with no change runs nothing, and the
/// tool rewrites the output only when its bytes change.
@main
struct AnnaPlugin {
    /// The one function both entry points call.
    func createBuildCommands(
        specs: [(url: URL, relativePath: String)],
        workDirectory: URL,
        tool: URL
    ) -> [Command] {
        specs.map { spec in
            let output = workDirectory
                .appending(path: "Generated", directoryHint: .isDirectory)
                .appending(path: SpecFileNaming.outputFileName(forRelativePath: spec.relativePath))
            return .buildCommand(
                displayName: "Anna: generating Swift from \(spec.relativePath)",
                executable: tool,
                arguments: [spec.url.path, output.path],
                inputFiles: [spec.url],
                outputFiles: [output]
            )
        }
    }

    static func relativePath(of url: URL, in directory: URL) -> String {
        let base = directory.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(base + "/") else { return url.lastPathComponent }
        return String(path.dropFirst(base.count + 1))
    }
}

extension AnnaPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let specs = target.sourceFiles.map(\.url).filter { SpecFileNaming.isSpec($0.lastPathComponent) }.sorted { $0.path < $1.path }
        return createBuildCommands(
            specs: specs.map { ($0, Self.relativePath(of: $0, in: target.directoryURL)) },
            workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "anna-generate").url
        )
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension AnnaPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let specs = target.inputFiles.map(\.url).filter { SpecFileNaming.isSpec($0.lastPathComponent) }.sorted { $0.path < $1.path }
        return createBuildCommands(
            specs: specs.map { ($0, Self.relativePath(of: $0, in: context.xcodeProject.directoryURL)) },
            workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "anna-generate").url
        )
    }
}
#endif
