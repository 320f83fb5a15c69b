// swift-tools-version:5.4
// 5.4, not later: from 5.5 on SwiftPM renames an executable's entry point and links
// main to it, which clashes with libFuzzer's own main().
import PackageDescription

// The spec loader's fuzzer, in a package of its own so the library's users never
// build it. It is not part of CI. Run it with:
//   scripts/fuzz.sh [SECONDS]
// which builds with `--scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address`.
let package = Package(
    name: "AnnaFuzz",
    dependencies: [
        .package(name: "Anna", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "FuzzSpecLoader",
            dependencies: [.product(name: "_AnnaGeneratorCore", package: "Anna")],
            path: "FuzzSpecLoader",
            // libFuzzer brings its own main(); the target only defines LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageVersions: [.v5]
)
