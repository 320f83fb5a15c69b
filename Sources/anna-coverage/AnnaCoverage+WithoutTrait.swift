// Without Anna's `Coverage` trait there is no swift-syntax to read Swift with; this
// anna-coverage says how to enable the trait.
#if !Coverage
import Foundation

/// anna-coverage built without the trait: prints how to enable it and exits 2.
@main
enum AnnaCoverageWithoutTrait {
    static func main() {
        FileHandle.standardError.write(Data("""
            anna-coverage: error: this anna-coverage was built without Anna's Coverage trait, which brings swift-syntax to read \
            Swift with; enable it where your package depends on Anna, .package(url: "https://github.com/anna-analytics/anna", \
            from: "0.1.0", traits: ["Coverage"]) (in Anna's own folder: swift build --traits Coverage), then run this again

            """.utf8))
        exit(2)
    }
}
#endif
