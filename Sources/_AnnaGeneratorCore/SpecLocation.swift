#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import AnnaRules

/// Where a spec is seen from the file generated from it: the relative path a
/// generated catalog resolves against its own `#filePath` in debug builds, so that
/// generated code committed to a repository finds its spec wherever the repository
/// is checked out.
///
/// Both paths are made absolute against the current folder and compared by their
/// text (AnnaRules' `SpecPath`, the rule the catalog resolves with), without asking
/// the file system: the generated file and its spec usually do not move apart, and
/// a link between them is followed when the app opens the spec.
package enum SpecLocation {
    /// The path of `spec` relative to the folder of `output`.
    /// - Parameters:
    ///   - spec: The spec's path, absolute or relative to `currentDirectory`.
    ///   - output: The generated file's path, likewise.
    ///   - currentDirectory: The folder relative paths start from; the process's by default.
    /// - Returns: For example `../app.anna.yml` for `Sources/App/app.anna.yml` seen
    ///   from `Sources/App/AnnaGenerated/app.anna.swift`.
    package static func relativePath(of spec: String, fromFolderOf output: String, currentDirectory: String? = nil) -> String {
        let base = currentDirectory ?? Self.currentDirectory()
        return SpecPath.relative(absolute(spec, in: base), fromFolderOf: absolute(output, in: base))
    }

    /// `path` made absolute against `base`, as a plain path.
    package static func absolute(_ path: String, in base: String) -> String {
        path.hasPrefix("/") ? path : SpecPath.resolve(path, besideFile: base + "/")
    }

    /// The process's current folder; `/` when it cannot be read.
    private static func currentDirectory() -> String {
        guard let pointer = getcwd(nil, 0) else { return "/" }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
