import Foundation
import PackagePlugin

/// Generates Swift from every `*.anna.yml` / `*.anna.yaml` in a target, at build time.
///
/// Each spec gets a build command whose only input is the spec and whose only
/// output is its generated file, so a build with no change runs nothing, and the
/// tool rewrites the output only when its bytes change.
///
/// A target whose generated code is kept in the repository (`swift package anna
/// generate`) must not apply the plugin too: both files would declare the same
/// events. The plugin says so, naming the file, instead of leaving the compiler to
/// report every declaration twice.
@main
struct AnnaPlugin {
    /// A spec whose Swift is already among the target's sources.
    struct GeneratedTwice: Error, CustomStringConvertible {
        let spec: String
        let committed: String
        var description: String {
            "\(spec)'s Swift is generated twice, by AnnaPlugin and in \(committed); "
                + "remove AnnaPlugin from the target's plugins to keep the generated code in the repository, "
                + "or delete that file to generate it at build time"
        }
    }

    /// The one function both entry points call.
    /// - Throws: ``GeneratedTwice`` when a source file of the target has the name of
    ///   a spec's generated file (`catalog.anna.swift` for `catalog.anna.yml`).
    func createBuildCommands(
        specs: [(url: URL, relativePath: String)],
        sources: [URL],
        workDirectory: URL,
        tool: URL
    ) throws -> [Command] {
        let sourcesByName = Dictionary(sources.map { ($0.lastPathComponent, $0) }, uniquingKeysWith: { first, _ in first })
        for spec in specs {
            let names = [SpecFileNaming.outputFileName(for: spec.url.path), SpecFileNaming.outputFileName(forRelativePath: spec.relativePath)]
            if let committed = names.lazy.compactMap({ sourcesByName[$0] }).first {
                throw GeneratedTwice(spec: spec.relativePath, committed: committed.path)
            }
        }
        return specs.map { spec in
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
        return try createBuildCommands(
            specs: specs.map { ($0, Self.relativePath(of: $0, in: target.directoryURL)) },
            sources: target.sourceFiles(withSuffix: ".swift").map(\.url),
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
        return try createBuildCommands(
            specs: specs.map { ($0, Self.relativePath(of: $0, in: context.xcodeProject.directoryURL)) },
            sources: target.inputFiles.map(\.url).filter { $0.pathExtension == "swift" },
            workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "anna-generate").url
        )
    }
}
#endif
