// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Shop",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(name: "Anna", path: "../.."),
    ],
    targets: [
        // The tracking spec lives here; the plugin turns it into typed Swift at build time.
        // The spec declares tasks, so the generated file imports AnnaFocusPaths too.
        .target(
            name: "ShopAnalytics",
            dependencies: [.product(name: "Anna", package: "Anna"), .product(name: "AnnaFocusPaths", package: "Anna")],
            plugins: [.plugin(name: "AnnaPlugin", package: "Anna")]
        ),
        .executableTarget(
            name: "Shop",
            dependencies: [
                "ShopAnalytics",
                .product(name: "Anna", package: "Anna"),
                // PostHog beside the Segment path, straight over its capture API.
                .product(name: "AnnaDestinations", package: "Anna"),
                // The headless responder tree drives the browsing flow on any platform.
                .product(name: "AnnaTesting", package: "Anna"),
                // `--bridge-messages`: a web page's calls through the web-content bridge.
                .product(name: "AnnaWebContent", package: "Anna"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
