import Foundation
import Testing

/// The build plugin with its tool prebuilt (issue 51): an app that takes the runtime
/// from Anna and the plugin from the `anna-plugins` package that
/// `scripts/build-artifactbundle.sh` writes, whose tool is an artifact bundle named by
/// a local `.binaryTarget(path:)`. The app's build runs the binary and compiles no
/// generator. Skipped until the script has built the bundle (a release build of the
/// tool, a few minutes), so CI and fresh clones build the plugin from source only.
@Suite(.serialized, .enabled(if: PrebuiltPlugins.isBuilt, "no prebuilt anna-generate: run scripts/build-artifactbundle.sh to build .build-artifact/anna-plugins"))
struct PrebuiltToolTests {

    @Test func anAppBuildsWithThePrebuiltToolAndCompilesNoGenerator() async throws {
        let app = ConsumerPackageTests.folder.appending(path: "Prebuilt", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: app.appending(path: "Sources/App"), withIntermediateDirectories: true)
        let files = [
            "Package.swift": """
                // swift-tools-version: 6.1
                import PackageDescription

                let package = Package(
                    name: "App",
                    platforms: [.macOS(.v13), .iOS(.v16)],
                    dependencies: [
                        .package(name: "Anna", path: "\(AnnaTool.packageRoot.path)"),
                        .package(path: "\(PrebuiltPlugins.folder.path)"),
                    ],
                    targets: [
                        .executableTarget(
                            name: "App", dependencies: [.product(name: "Anna", package: "Anna")],
                            plugins: [.plugin(name: "AnnaPrebuiltPlugin", package: "anna-plugins")]),
                    ],
                    swiftLanguageModes: [.v6]
                )

                """,
            "Sources/App/app.anna.yml": """
                anna: 1
                namespace: App
                events:
                  appOpened:
                    description: The app was opened.
                    parameters:
                      source: { type: string, maxLength: 40 }

                """,
            "Sources/App/main.swift": """
                import Anna

                print(AnalyticsEvent.appOpened(source: "icon"))

                """,
        ]
        for (path, text) in files {
            let url = app.appending(path: path)
            if (try? String(contentsOf: url, encoding: .utf8)) != text { try text.write(to: url, atomically: true, encoding: .utf8) }
        }
        // The plugin runs whatever an earlier run left built.
        try FileManager.default.setAttributes(
            [.modificationDate: Date()], ofItemAtPath: app.appending(path: "Sources/App/app.anna.yml").path)

        let build = try await ConsumerPackageTests.swift("build", "--product", "App", in: app)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("Anna: generating Swift from app.anna.yml"), "\(build.stdout)")
        #expect(!"\(build.stdout)\(build.stderr)".contains("warning:"), "\(build.stdout)\(build.stderr)")
        // Neither the tool nor the pipeline was compiled (SwiftPM still makes their
        // folders in the build, empty).
        let debug = app.appending(path: ".build/debug", directoryHint: .isDirectory)
        #expect(!FileManager.default.fileExists(atPath: debug.appending(path: "anna-generate-tool").path))
        let pipeline = (try? FileManager.default.contentsOfDirectory(atPath: debug.appending(path: "_AnnaGeneratorCore-tool.build").path)) ?? []
        #expect(!pipeline.contains { $0.hasSuffix(".o") }, "\(pipeline)")

        let run = try await AnnaTool.runWithoutBlocking([], in: app, executable: app.appending(path: ".build/debug/App"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("appOpened(source: "), "\(run.stdout)")
    }
}

/// The `anna-plugins` package that `scripts/build-artifactbundle.sh` writes.
enum PrebuiltPlugins {
    static let folder = AnnaTool.packageRoot.appending(path: ".build-artifact/anna-plugins", directoryHint: .isDirectory)
    static var isBuilt: Bool {
        FileManager.default.fileExists(atPath: folder.appending(path: "anna-generate.artifactbundle/info.json").path)
    }
}
