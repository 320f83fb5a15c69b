// Without Anna's `LiveTasks` trait there is no swift-crypto to sign with; this
// anna-sign says how to enable the trait.
#if !LiveTasks
import Foundation

/// anna-sign built without the trait: prints how to enable it and exits 2.
@main
enum AnnaSignWithoutTrait {
    static func main() {
        FileHandle.standardError.write(Data("""
            anna-sign: error: this anna-sign was built without Anna's LiveTasks trait, which brings swift-crypto to sign with; \
            enable it where your package depends on Anna, .package(url: "https://github.com/anna-analytics/anna", from: "0.1.0", \
            traits: ["LiveTasks"]) (in Anna's own folder: swift build --traits LiveTasks), then run this again

            """.utf8))
        exit(2)
    }
}
#endif
