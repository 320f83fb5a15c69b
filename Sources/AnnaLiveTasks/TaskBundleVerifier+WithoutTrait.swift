// Without Anna's `LiveTasks` trait there is no swift-crypto to verify signatures with:
// a verifier is then a compile-time error that says how to enable the trait.
#if !LiveTasks
/// Checks signed task bundles against the public key an app ships. It needs Anna's
/// `LiveTasks` package trait, which brings swift-crypto (CryptoKit on Apple
/// platforms), so that apps that do not load signed bundles never fetch it:
///
/// ```swift
/// .package(url: "https://github.com/anna-analytics/anna", from: "0.1.0", traits: ["LiveTasks"])
/// ```
@available(
    *, unavailable,
    message: "signed task bundles need Anna's LiveTasks trait: .package(url: \"https://github.com/anna-analytics/anna\", from: \"0.1.0\", traits: [\"LiveTasks\"])"
)
public struct TaskBundleVerifier {}
#endif
