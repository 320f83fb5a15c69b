/// Where a value sits inside a parameter of an object type: `products/email` is the
/// `email` of the `products` parameter's object, or of each object of its list.
///
/// Event metadata names PII and constraints inside objects this way; the generator
/// writes the paths and the runtime follows them. `/` never appears in a spec's
/// names, so a path cannot be mistaken for a parameter's name.
package enum AnalyticsKeyPath {
    /// What separates the names of a path.
    package static let separator = "/"

    /// Whether a metadata key is a path into an object rather than a parameter's name.
    package static func isPath(_ key: String) -> Bool {
        key.utf8.contains(UInt8(ascii: "/"))
    }

    /// The names of a path, outermost first.
    package static func components(of key: String) -> [Substring] {
        key.split(separator: "/", omittingEmptySubsequences: false)
    }
}
