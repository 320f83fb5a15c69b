// swift-tools-version: 6.1
// A package anna coverage reads (never built): app code, tests and a spec.
import PackageDescription

let package = Package(
    name: "Sample",
    targets: [
        .target(name: "App"),
        .testTarget(name: "AppTests", dependencies: ["App"]),
    ]
)
