// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so the library's users never build
// package-benchmark. Run them with:
//   swift package --package-path Benchmarks benchmark
let package = Package(
    name: "AnnaBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // LiveTasks: FocusPathBenchmarks load signed bundles (AnnaLiveTasks with swift-crypto).
        .package(name: "Anna", path: "..", traits: ["LiveTasks"]),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // libyaml on its own, for the bare-parse baseline.
        .systemLibrary(name: "CYAMLBench", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .executableTarget(
            name: "GeneratorBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "_AnnaGeneratorCore", package: "Anna"),
                "CYAMLBench",
            ],
            path: "Benchmarks/GeneratorBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "RuntimeBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Anna", package: "Anna"),
                // The web-content bridge against a direct report (issue 55).
                .product(name: "AnnaWebContent", package: "Anna"),
            ],
            path: "Benchmarks/RuntimeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "FocusPathBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Anna", package: "Anna"),
                .product(name: "AnnaFocusPaths", package: "Anna"),
                .product(name: "AnnaLiveTasks", package: "Anna"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/FocusPathBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // `anna inspect`'s checks on one core, and its memory over 1,000,000 calls.
        .executableTarget(
            name: "InspectorBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "_AnnaInspector", package: "Anna"),
                .product(name: "_AnnaGeneratorCore", package: "Anna"),
            ],
            path: "Benchmarks/InspectorBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DeliveryBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Anna", package: "Anna"),
                .product(name: "AnnaDestinations", package: "Anna"),
            ],
            path: "Benchmarks/DeliveryBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
