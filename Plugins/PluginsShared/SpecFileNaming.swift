// Shared by the `anna` tool and both plugins through symbolic links named
// PluginsShared (a plugin can import no module of its package), so the three
// agree on which files are specs and what their generated files are called.

/// Which files are tracking specs, and the names of the Swift generated from them.
enum SpecFileNaming {
    /// The extensions of a spec file.
    static let specSuffixes = [".anna.yml", ".anna.yaml"]

    /// Whether a file name or path names a tracking spec.
    static func isSpec(_ path: String) -> Bool {
        specSuffixes.contains { path.hasSuffix($0) }
    }

    /// `Sources/App/catalog.anna.yml` → `catalog`; a plain `.yml` or `.yaml` suffix
    /// is dropped too.
    static func baseName(of path: String) -> String {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        for suffix in specSuffixes + [".yml", ".yaml"] where name.hasSuffix(suffix) {
            name = name.dropLast(suffix.count)
            break
        }
        return String(name)
    }

    /// `catalog.anna.yml` → `catalog.anna.swift`.
    static func outputFileName(for path: String) -> String {
        baseName(of: path) + ".anna.swift"
    }

    /// The generated file for a spec at a path relative to its target, unique within
    /// the target: `Checkout/catalog.anna.yml` → `Checkout_catalog.anna.swift`.
    static func outputFileName(forRelativePath path: String) -> String {
        var components = path.split(separator: "/").map(String.init)
        let name = components.popLast().map(baseName(of:)) ?? ""
        return (components + [name]).joined(separator: "_") + ".anna.swift"
    }
}
