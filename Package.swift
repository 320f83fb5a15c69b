// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Anna",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Anna", targets: ["Anna"]),
        // Focus paths (`Manager`, `Node`, `Analyzer`), automatic capture's core and tasks,
        // the original Anna's half. An app that only reports typed events leaves it out;
        // generated code imports it only when its spec declares tasks.
        .library(name: "AnnaFocusPaths", targets: ["AnnaFocusPaths"]),
        // Amplitude, Mixpanel and PostHog over their HTTP ingestion APIs, on Anna's durable
        // queue and upload state machine: no vendor SDK, no dependency beyond `Anna`.
        .library(name: "AnnaDestinations", targets: ["AnnaDestinations"]),
        // Apple platforms: the app's or extension's lifecycle (`AppLifecycle.platform`),
        // background time, and key-value observing. Safe in app extensions.
        .library(name: "AnnaApple", targets: ["AnnaApple"]),
        // Automatic capture on UIKit (iOS, tvOS, visionOS, Mac Catalyst).
        .library(name: "AnnaUIKit", targets: ["AnnaUIKit"]),
        // The `.analyzer(_:)` and `.analyzerRoot(_:)` view modifiers.
        .library(name: "AnnaSwiftUI", targets: ["AnnaSwiftUI"]),
        // Web content in the app's web views reporting through the app's service, checked
        // against its compiled plan: the platform-neutral bridge, and WebKit's adapter.
        .library(name: "AnnaWebContent", targets: ["AnnaWebContent"]),
        .library(name: "AnnaWebKit", targets: ["AnnaWebKit"]),
        // For app teams' unit tests: a recording provider and readable differences.
        .library(name: "AnnaTesting", targets: ["AnnaTesting"]),
        // Signed task bundles: verifies Ed25519 signatures with swift-crypto (CryptoKit on
        // Apple platforms), with the LiveTasks trait.
        .library(name: "AnnaLiveTasks", targets: ["AnnaLiveTasks"]),
        .executable(name: "anna", targets: ["anna"]),
        // Makes signing keys and signs task bundles (`swift run anna-sign keygen` from an
        // app's package); signs with the LiveTasks trait, says how to enable it without.
        .executable(name: "anna-sign", targets: ["anna-sign"]),
        // `anna coverage`: reads a package's Swift with swift-syntax, with the Coverage
        // trait. Its own product, so the tool the build plugin runs never compiles it.
        .executable(name: "anna-coverage", targets: ["anna-coverage"]),
        // `anna inspect`: a local collector that checks every call against the specs,
        // with a live page and a CI gate; serves with SwiftNIO, with the Inspector trait.
        // Its own product, so neither apps nor the build plugin's tool compile NIO.
        .executable(name: "anna-inspect", targets: ["anna-inspect"]),
        // The generator as a library, for the benchmarks and tools built on it; not a stable API.
        .library(name: "_AnnaGeneratorCore", targets: ["_AnnaGeneratorCore", "_AnnaClientGenerator", "_AnnaGovernance"]),
        // The inspector's checks without its server, for the benchmarks; not a stable API.
        .library(name: "_AnnaInspector", targets: ["_AnnaInspector"]),
        .plugin(name: "AnnaPlugin", targets: ["AnnaPlugin"]),
        .plugin(name: "AnnaCommand", targets: ["AnnaCommand"]),
    ],
    // What an app that only reports events never fetches: a dependency used only under a
    // trait that is off is left out of resolution (SwiftPM 6.1+). An app enables them on
    // its dependency, `.package(url: …, from: …, traits: ["LiveTasks"])`; in this
    // package, `swift test --enable-all-traits` (as CI does).
    traits: [
        .trait(name: "LiveTasks", description: "Signed task bundles (AnnaLiveTasks) and anna-sign; brings swift-crypto."),
        .trait(name: "Coverage", description: "anna-coverage, which reads a package's Swift; brings swift-syntax."),
        .trait(name: "Inspector", description: "anna-inspect, the local collector that checks calls against the specs; brings swift-nio."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        // What build time and run time must agree on: provider profiles and their name
        // rules, snake case, focus patterns, parameter constraints and their pattern
        // engine, Swift naming, a spec's path beside its generated file. A leaf: no
        // dependencies, so the tool the build plugin runs does not compile the runtime.
        .target(name: "AnnaRules"),

        // The system's zlib, for gzip request bodies: libz on Linux (Debian's zlib1g-dev),
        // the SDK's on Apple platforms. A C target, as swift-nio-extras' was, because
        // deflateInit2 is a macro Swift cannot call.
        .target(
            name: "CAnnaZlib",
            linkerSettings: [.linkedLibrary("z")]),

        // Runtime: what an app links. Re-exports AnnaRules' public types.
        .target(
            name: "Anna", dependencies: ["AnnaRules", "CAnnaZlib", .product(name: "Logging", package: "swift-log")],
            resources: [.copy("PrivacyInfo.xcprivacy")]),
        // Focus paths, the capture core and tasks: `Manager`, `Node`, `Analyzer` and the
        // rules automatic capture applies. Reports through `Anna`'s service, which it
        // re-exports; `Anna` cannot see it.
        .target(name: "AnnaFocusPaths", dependencies: ["Anna"]),
        // Direct delivery to Amplitude, Mixpanel and PostHog: each a wire protocol
        // (`CollectorWire`) on `Anna`'s durable delivery, through its `package` hooks.
        .target(name: "AnnaDestinations", dependencies: ["Anna"]),
        // The Apple adapters: each only forwards platform callbacks to the capture core
        // and the lifecycle source in `Anna`, where every decision is made and tested.
        // Apart from `Anna`, so that a mistake in one cannot break `import Anna`; their
        // sources are inside `#if canImport(...)`, so on Linux they build empty.
        .target(name: "AnnaApple", dependencies: ["Anna", "AnnaFocusPaths"]),
        .target(name: "AnnaUIKit", dependencies: ["Anna", "AnnaFocusPaths"]),
        .target(name: "AnnaSwiftUI", dependencies: ["Anna", "AnnaFocusPaths"]),
        .target(name: "AnnaTesting", dependencies: ["Anna", "AnnaFocusPaths"]),
        // A web page's messages checked against the app's compiled plan and reported
        // through its service: every decision, on every platform, tested on Linux.
        .target(name: "AnnaWebContent", dependencies: ["Anna"]),
        // WebKit's script message handler, forwarding to AnnaWebContent; inside
        // `#if canImport(WebKit)`, so elsewhere it builds empty.
        .target(name: "AnnaWebKit", dependencies: ["AnnaWebContent"]),
        .target(
            name: "AnnaLiveTasks",
            dependencies: ["Anna", "AnnaFocusPaths", .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["LiveTasks"]))]),
        // Makes signing keys and signs task bundles; `anna bundle --sign` runs it. Apart
        // from `anna`, which the build plugin runs, so no build compiles swift-crypto
        // unless it signs.
        .executableTarget(
            name: "anna-sign",
            dependencies: [
                "AnnaLiveTasks", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["LiveTasks"])),
            ]),

        // libyaml, found through pkg-config.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),

        // The generator as a pipeline: parsing, validation, translation, rendering with
        // the built-in templates compiled to Swift. All the build plugin's tool compiles
        // besides AnnaRules and libyaml, so an app's first build stays short.
        .target(name: "_AnnaGeneratorCore", dependencies: ["AnnaRules", "CYAML"]),

        // TypeScript and Kotlin from the same validated specs (`anna generate --language`):
        // the client model, its translation and the two renderers. Apart from the
        // pipeline, so the build plugin's tool, which writes Swift only, never compiles it.
        .target(name: "_AnnaClientGenerator", dependencies: ["_AnnaGeneratorCore", "AnnaRules"]),

        // What the `anna` tool does on top of the pipeline, for a team governing its
        // specs: diff, docs, privacy, coverage reports and task bundles (Governance/),
        // `anna import` (Import/) and user templates interpreted by Mustache (Templates/).
        .target(
            name: "_AnnaGovernance",
            dependencies: [
                "_AnnaGeneratorCore",
                "AnnaRules",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),

        // The command-line tool; argument parsing and exit codes only.
        .executableTarget(
            name: "anna",
            dependencies: [
                "_AnnaGeneratorCore",
                "_AnnaClientGenerator",
                "_AnnaGovernance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .executableTarget(
            name: "anna-coverage",
            dependencies: [
                "_AnnaGovernance",
                .product(name: "SwiftSyntax", package: "swift-syntax", condition: .when(traits: ["Coverage"])),
                .product(name: "SwiftParser", package: "swift-syntax", condition: .when(traits: ["Coverage"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // What `anna inspect` checks and keeps, without a server: the plan indexed from
        // validated specs, each call's findings with the spec's locations, the bounded
        // log of recent calls, the reports and the live page. Tests, the fuzz test and
        // the benchmarks reach it without SwiftNIO.
        .target(name: "_AnnaInspector", dependencies: ["_AnnaGeneratorCore", "AnnaRules", "CAnnaZlib"]),

        // The inspector's HTTP server (SwiftNIO, with the Inspector trait); says how to
        // enable the trait without it.
        .executableTarget(
            name: "anna-inspect",
            dependencies: [
                "_AnnaInspector",
                // `--plan-ref`: specs at a git revision, read as `anna diff --base` reads them.
                "_AnnaGovernance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Inspector"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Inspector"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Inspector"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Inspector"])),
            ]
        ),

        // The build plugin's tool: `anna generate` for one spec, without the argument
        // parser, the template engine or governance: SwiftPM compiles it first and alone
        // in an app's first build, so it depends on the pipeline only.
        .executableTarget(name: "anna-generate", dependencies: ["_AnnaGeneratorCore"]),

        // Built from source here, for CI and every clone. The same plugin with this tool
        // prebuilt is a second package, anna-plugins (`AnnaPrebuiltPlugin`, a
        // `binaryTarget` named AnnaGenerateBinary whose artifact is `anna-generate`),
        // which scripts/build-artifactbundle.sh writes and a release publishes.
        .plugin(
            name: "AnnaPlugin",
            capability: .buildTool(),
            dependencies: ["anna-generate"]
        ),
        .plugin(
            name: "AnnaCommand",
            capability: .command(
                intent: .custom(verb: "anna", description: "Lint tracking specs or generate their Swift into the package"),
                permissions: [.writeToPackageDirectory(reason: "Writes the Swift generated from tracking specs")]
            ),
            dependencies: ["anna"]
        ),

        .testTarget(name: "AnnaTests", dependencies: ["Anna", "AnnaFocusPaths", "AnnaTesting"]),
        // Focus paths on AnnaTesting's headless responder tree, with tasks generated
        // from master-detail.anna.yml by the build plugin.
        .testTarget(
            name: "AnnaFocusPathTests",
            dependencies: ["Anna", "AnnaFocusPaths", "AnnaTesting"],
            plugins: [.plugin(name: "AnnaPlugin")]
        ),
        .testTarget(
            name: "AnnaGeneratorTests",
            dependencies: ["Anna", "_AnnaGeneratorCore", "_AnnaClientGenerator", "_AnnaGovernance"],
            exclude: ["Fixtures"]
        ),
        // Durable delivery against real files, a real loopback collector and real child
        // processes killed with SIGKILL; apart from AnnaTests so the TSan step stays fast.
        .testTarget(
            name: "AnnaDeliveryTests",
            // Destinations/: Amplitude, Mixpanel and PostHog against loopback collectors
            // that implement each vendor's documented contract, and killed with SIGKILL.
            dependencies: ["Anna", "AnnaDestinations", "AnnaDeliveryChild"],
            exclude: ["collector.py", "Destinations/vendors.py", "Corpus"]
        ),
        // The process the kill tests start and kill; built by `swift test` with its tests.
        .executableTarget(name: "AnnaDeliveryChild", dependencies: ["Anna", "AnnaDestinations"], path: "Tests/AnnaDeliveryChild"),
        // The `anna` tool run as a process, as CI and users run it: exit codes and outputs.
        // Not a dependency on `anna` (its objects would clash with the plugin tool's):
        // `swift test` builds every product, and the tests find the binary beside them.
        .testTarget(name: "AnnaToolTests", exclude: ["Fixtures"]),
        // The documents' Swift blocks marked for compilation, generated into
        // ArticleSnippets.swift and run, against the README's spec (catalog.anna.yml).
        .testTarget(
            name: "AnnaDocumentationTests",
            dependencies: ["Anna", "AnnaFocusPaths", "AnnaTesting", "AnnaDestinations", "AnnaWebContent"],
            plugins: [.plugin(name: "AnnaPlugin")]
        ),
        // The inspector's checks in process, and anna-inspect run as a process: real
        // HTTP from DurableProvider and a Segment-shaped client, forwarding, the CI
        // gate's reports and exit codes, the live page in headless Chromium.
        .testTarget(name: "AnnaInspectorTests", dependencies: ["_AnnaInspector", "_AnnaGeneratorCore", "_AnnaGovernance", "Anna"], exclude: ["Fixtures", "forward_collector.py"]),
        // The web-content bridge against the Shop example's spec, generated by the plugin:
        // hostile pages, consent and opt-out, every value form a generated web client sends.
        .testTarget(
            name: "AnnaWebContentTests",
            dependencies: ["Anna", "AnnaWebContent", "AnnaTesting"],
            plugins: [.plugin(name: "AnnaPlugin")]
        ),
        // Compiles and exercises the golden generated sources.
        .testTarget(name: "AnnaGoldenTests", dependencies: ["Anna", "AnnaFocusPaths"]),
        // Signed bundles loaded into a manager, with tasks generated from store.anna.yml.
        .testTarget(
            name: "AnnaLiveTasksTests",
            dependencies: ["AnnaLiveTasks", "Anna", "AnnaFocusPaths", "AnnaTesting"],
            exclude: ["Fixtures"],
            plugins: [.plugin(name: "AnnaPlugin")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
