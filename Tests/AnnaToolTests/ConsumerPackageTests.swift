import Foundation
import Testing

/// Real app packages that depend on Anna by path, built and run with `swift` as the
/// README tells app teams: an app that only reports events fetches neither
/// swift-crypto nor swift-syntax, and an app that enables the traits runs
/// `anna-sign`, `anna bundle --sign` and `anna-coverage` from its own folder.
///
/// The packages live under this package's `.build/consumer-packages`, so a second
/// run builds incrementally; a fresh clone builds them from scratch (a few minutes).
@Suite(.serialized) struct ConsumerPackageTests {
    static let folder = AnnaTool.packageRoot.appending(path: ".build/consumer-packages", directoryHint: .isDirectory)

    /// Writes an app package: one target with a spec, the build plugin and a report.
    static func makeApp(named name: String, traits: [String]) throws -> URL {
        let app = folder.appending(path: name, directoryHint: .isDirectory)
        let sources = app.appending(path: "Sources/App", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let traitList = traits.isEmpty ? "" : ", traits: [\(traits.map { "\"\($0)\"" }.joined(separator: ", "))]"
        let files = [
            "Package.swift": """
                // swift-tools-version: 6.1
                import PackageDescription

                let package = Package(
                    name: "App",
                    platforms: [.macOS(.v13), .iOS(.v16)],
                    dependencies: [.package(name: "Anna", path: "\(AnnaTool.packageRoot.path)"\(traitList))],
                    targets: [
                        // The spec declares tasks: the generated file imports AnnaFocusPaths.
                        .target(
                            name: "App",
                            dependencies: [.product(name: "Anna", package: "Anna"), .product(name: "AnnaFocusPaths", package: "Anna")],
                            plugins: [.plugin(name: "AnnaPlugin", package: "Anna")]),
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
                  neverSent: {}
                tasks:
                  - match: home/appeared
                    report: appOpened
                    with: { source: home }

                """,
            "Sources/App/App.swift": """
                import Anna

                public func appLaunched(_ analytics: AnalyticsService) {
                    analytics.report(event: .appOpened(source: "icon"))
                }

                """,
        ]
        for (path, text) in files {
            let url = app.appending(path: path)
            // Rewritten only when it changes, so a second run builds incrementally.
            if (try? String(contentsOf: url, encoding: .utf8)) != text { try text.write(to: url, atomically: true, encoding: .utf8) }
        }
        // SwiftPM keeps a path dependency's file list in the app's build folder and
        // stops at a file that was moved or removed ("missing inputs"): the app builds
        // anew when Anna's files changed since its last build.
        let inventory = try anInventoryOfAnnasSources()
        let stamp = app.appending(path: ".build/anna-sources.txt")
        if (try? String(contentsOf: stamp, encoding: .utf8)) != inventory {
            try? FileManager.default.removeItem(at: app.appending(path: ".build"))
            try FileManager.default.createDirectory(at: stamp.deletingLastPathComponent(), withIntermediateDirectories: true)
            try inventory.write(to: stamp, atomically: true, encoding: .utf8)
        }
        return app
    }

    /// The paths of every file under Anna's `Sources`, sorted, one per line.
    private static func anInventoryOfAnnasSources() throws -> String {
        let root = AnnaTool.packageRoot.appending(path: "Sources")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { ($0 as? URL)?.path } ?? []
        return files.sorted().joined(separator: "\n")
    }

    /// Runs `swift ARGUMENTS` in the app's folder, suspending while it builds.
    static func swift(_ arguments: String..., in app: URL) async throws -> AnnaTool.Result {
        try await AnnaTool.runWithoutBlocking(["swift"] + arguments, in: app, executable: URL(fileURLWithPath: "/usr/bin/env"))
    }

    @Test func anAppThatReportsEventsFetchesNeitherCryptoNorSyntax() async throws {
        let app = try Self.makeApp(named: "Reporting", traits: [])
        let resolved = try await Self.swift("package", "resolve", in: app)
        #expect(resolved.status == 0, "\(resolved.stderr)")
        let checkouts = Set((try? FileManager.default.contentsOfDirectory(atPath: app.appending(path: ".build/checkouts").path)) ?? [])
        #expect(checkouts == ["swift-argument-parser", "swift-log", "swift-mustache"])

        // The spec is touched so that the plugin runs whatever an earlier run left built:
        // the test checks that it runs in the app, not that this build is the first.
        try FileManager.default.setAttributes(
            [.modificationDate: Date()], ofItemAtPath: app.appending(path: "Sources/App/app.anna.yml").path)
        let build = try await Self.swift("build", in: app)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("Anna: generating Swift from app.anna.yml"))

        // The documented command says what to add instead of failing obscurely.
        let keygen = try await Self.swift("run", "anna-sign", "keygen", "--private-key", "tasks.key", in: app)
        #expect(keygen.status == 2)
        #expect(keygen.stderr.contains("built without Anna's LiveTasks trait"))
        #expect(keygen.stderr.contains("traits: [\"LiveTasks\"]"))
        #expect(!FileManager.default.fileExists(atPath: app.appending(path: "tasks.key").path))
        let coverage = try await Self.swift("run", "anna-coverage", "--package", ".", in: app)
        #expect(coverage.status == 2)
        #expect(coverage.stderr.contains("traits: [\"Coverage\"]"))
    }

    /// SwiftPM builds plugin tools before anything else in an app's first build, so the
    /// tool links the pipeline alone: no template engine, governance or import.
    @Test func theBuildPluginsToolLinksOnlyThePipeline() async throws {
        let app = try Self.makeApp(named: "Reporting", traits: [])
        let build = try await Self.swift("build", in: app)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        // The objects SwiftPM links into the tool, one `MODULE-tool.build/…o` a line;
        // written from the build plan on every build.
        let list = try String(
            contentsOf: app.appending(path: ".build/debug/anna-generate-tool.product/Objects.LinkFileList"), encoding: .utf8)
        let modules = Set(list.split(separator: "\n").compactMap { line in
            line.split(separator: "/").first { $0.hasSuffix("-tool.build") }.map { String($0.dropLast("-tool.build".count)) }
        })
        #expect(modules == ["AnnaRules", "_AnnaGeneratorCore", "anna_generate"], "\(list)")
        #if os(Linux)
        // Nor Foundation and ICU: the pipeline imports FoundationEssentials only, and
        // loading Foundation took 2.7 ms of every run of the tool.
        let libraries = try await AnnaTool.runWithoutBlocking(
            [app.appending(path: ".build/debug/anna-generate-tool").path], executable: URL(fileURLWithPath: "/usr/bin/ldd"))
        #expect(libraries.status == 0, "\(libraries.stderr)")
        #expect(libraries.stdout.contains("libFoundationEssentials"), "\(libraries.stdout)")
        for library in ["libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU"] {
            #expect(!libraries.stdout.contains(library), "\(libraries.stdout)")
        }
        #endif
    }

    /// The other way to adopt Anna: generated code kept in the repository, written by
    /// the command plugin, and no build plugin, so that the app's builds compile no
    /// generator. The spec is excluded from the target (SwiftPM would warn about a file
    /// it does not know) and the command plugin still finds it; the catalog finds the
    /// spec from where the generated file is, on any machine; `--check` fails CI when
    /// the committed code is out of date.
    @Test func anAppThatCommitsGeneratedCodeBuildsNoGenerator() async throws {
        let app = Self.folder.appending(path: "Committed", directoryHint: .isDirectory)
        let sources = app.appending(path: "Sources/App", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        // As an app that has never generated. SwiftPM keeps the plan of an earlier run
        // when a file it compiled vanishes and a command plugin writes it again before
        // the next build; a newer manifest makes it plan again.
        if (try? FileManager.default.removeItem(at: sources.appending(path: "AnnaGenerated"))) != nil {
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: app.appending(path: "Package.swift").path)
        }
        try? FileManager.default.removeItem(at: app.appending(path: ".build/debug/anna-generate-tool"))
        let spec = "anna: 1\nnamespace: App\nevents:\n  appOpened:\n    parameters:\n      source: string\n"
        let files = [
            "Package.swift": """
                // swift-tools-version: 6.1
                import PackageDescription

                let package = Package(
                    name: "App",
                    platforms: [.macOS(.v13), .iOS(.v16)],
                    dependencies: [.package(name: "Anna", path: "\(AnnaTool.packageRoot.path)")],
                    targets: [
                        .executableTarget(
                            name: "App", dependencies: [.product(name: "Anna", package: "Anna")],
                            exclude: ["app.anna.yml"]),
                    ],
                    swiftLanguageModes: [.v6]
                )

                """,
            "Sources/App/app.anna.yml": spec,
            "Sources/App/main.swift": """
                import Anna

                print(AnalyticsEvent.appOpened(source: "icon").name)
                print(EventCatalog.app.specPath ?? "no spec path")

                """,
        ]
        for (path, text) in files {
            let url = app.appending(path: path)
            if (try? String(contentsOf: url, encoding: .utf8)) != text { try text.write(to: url, atomically: true, encoding: .utf8) }
        }

        let generate = try await Self.swift("package", "--allow-writing-to-package-directory", "anna", "generate", in: app)
        #expect(generate.status == 0, "\(generate.stdout)\(generate.stderr)")
        #expect(generate.stdout.contains("Anna: generated Swift for 1 spec(s) of App"))
        #expect(FileManager.default.fileExists(atPath: sources.appending(path: "AnnaGenerated/app.anna.swift").path))

        let build = try await Self.swift("build", "--product", "App", in: app)
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        #expect(!"\(build.stdout)\(build.stderr)".contains("warning:"), "\(build.stdout)\(build.stderr)")
        #expect(!"\(build.stdout)\(build.stderr)".contains("anna-generate"))
        #expect(!FileManager.default.fileExists(atPath: app.appending(path: ".build/debug/anna-generate-tool").path))

        let run = try await AnnaTool.runWithoutBlocking([], in: app, executable: app.appending(path: ".build/debug/App"))
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "appOpened")
        let specURL = sources.appending(path: "app.anna.yml")
        #expect(lines.last.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } == specURL.resolvingSymlinksInPath().path,
                "\(run.stdout)")

        let current = try await Self.swift("package", "--allow-writing-to-package-directory", "anna", "generate", "--check", in: app)
        #expect(current.status == 0, "\(current.stdout)\(current.stderr)")
        #expect(current.stdout.contains("Anna: Swift up to date for 1 spec(s) of App"))
        try (spec + "  appClosed: {}\n").write(to: specURL, atomically: true, encoding: .utf8)
        let stale = try await Self.swift("package", "--allow-writing-to-package-directory", "anna", "generate", "--check", in: app)
        #expect(stale.status != 0)
        // SwiftPM passes what the tool prints on to its standard output, and what the
        // plugin throws to its standard error.
        #expect(stale.stdout.contains("Sources/App/AnnaGenerated/app.anna.swift:1:1: error: generated code is out of date with"), "\(stale.stdout)")
        #expect(stale.stderr.contains("run `swift package --allow-writing-to-package-directory anna generate` and commit it"), "\(stale.stderr)")

        // The build plugin applied as well: it names the committed file and says what to do.
        try String(contentsOf: app.appending(path: "Package.swift"), encoding: .utf8)
            .replacingOccurrences(of: "exclude: [\"app.anna.yml\"]", with: "plugins: [.plugin(name: \"AnnaPlugin\", package: \"Anna\")]")
            .write(to: app.appending(path: "Package.swift"), atomically: true, encoding: .utf8)
        let twice = try await Self.swift("build", "--product", "App", in: app)
        #expect(twice.status != 0)
        #expect("\(twice.stdout)\(twice.stderr)".contains(
            "error: app.anna.yml's Swift is generated twice, by AnnaPlugin and in \(sources.path)/AnnaGenerated/app.anna.swift; remove AnnaPlugin"),
            "\(twice.stdout)\(twice.stderr)")
    }

    @Test func anAppWithTheTraitsRunsTheDocumentedCommands() async throws {
        let app = try Self.makeApp(named: "Publishing", traits: ["LiveTasks", "Coverage"])
        for file in ["tasks.key", "tasks.json"] { try? FileManager.default.removeItem(at: app.appending(path: file)) }

        let keygen = try await Self.swift("run", "anna-sign", "keygen", "--private-key", "tasks.key", in: app)
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let publicKey = keygen.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(Data(base64Encoded: publicKey)?.count == 32, "\(keygen.stdout)")

        let bundle = try await Self.swift("run", "anna", "bundle", "Sources/App/app.anna.yml", "--output", "tasks.json", "--sign", "tasks.key", in: app)
        #expect(bundle.status == 0, "\(bundle.stderr)")
        let signed = try String(contentsOf: app.appending(path: "tasks.json"), encoding: .utf8)
        #expect(signed.hasPrefix("{\"annaTaskBundle\": 1, \"payload\": "))

        let verify = try await Self.swift("run", "anna-sign", "verify", "tasks.json", "--public-key", publicKey, in: app)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout.contains("\"report\":\"appOpened\""))

        let coverage = try await Self.swift("run", "anna-coverage", "--package", ".", "--fail-unused", in: app)
        #expect(coverage.status == 1, "\(coverage.stderr)")
        #expect(coverage.stdout.contains("Sources/App/app.anna.yml:8:3: warning: event 'neverSent' is declared but never reported"))
        let checkouts = Set((try? FileManager.default.contentsOfDirectory(atPath: app.appending(path: ".build/checkouts").path)) ?? [])
        #expect(checkouts.isSuperset(of: ["swift-crypto", "swift-syntax"]))
    }
}
