// Without Anna's `Inspector` trait there is no SwiftNIO to serve with; this
// anna-inspect says how to enable the trait.
#if !Inspector
import Foundation

/// anna-inspect built without the trait: prints how to enable it and exits 2.
@main
enum AnnaInspectWithoutTrait {
    static func main() {
        FileHandle.standardError.write(Data("""
            anna-inspect: error: this anna-inspect was built without Anna's Inspector trait, which brings SwiftNIO to serve \
            with; enable it where your package depends on Anna, .package(url: "https://github.com/anna-analytics/anna", \
            from: "0.1.0", traits: ["Inspector"]) (in Anna's own folder: swift build --traits Inspector --product anna-inspect), \
            then run this again

            """.utf8))
        exit(2)
    }
}
#endif
