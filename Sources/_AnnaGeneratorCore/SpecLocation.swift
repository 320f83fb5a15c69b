#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a spec is seen from the file generated from it: the relative path a
/// generated catalog resolves against its own `#filePath` in debug builds, so that
/// generated code committed to a repository finds its spec wherever the repository
/// is checked out.
///
/// Paths are compared as written, made absolute against the current folder and
/// with `.` and `..` taken away by their text, as `URL.standardized` does, without
/// asking the file system: the generated file and its spec usually do not move
/// apart, and a link between them is followed when the app opens the spec.
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
        let target = components(of: spec, in: base)
        let folder = components(of: output, in: base).dropLast()
        var shared = 0
        while shared < folder.count, shared < target.count - 1, folder[shared] == target[shared] { shared += 1 }
        let up = Array(repeating: Substring(".."), count: folder.count - shared)
        return (up + target[shared...]).joined(separator: "/")
    }

    /// The components of `path` made absolute against `base`, without `.`, `..` or empty ones.
    package static func components(of path: String, in base: String) -> [Substring] {
        let absolute = path.hasPrefix("/") ? path : base + "/" + path
        var result: [Substring] = []
        for component in absolute.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !result.isEmpty { result.removeLast() }
            default: result.append(component)
            }
        }
        return result
    }

    /// The process's current folder; `/` when it cannot be read.
    private static func currentDirectory() -> String {
        guard let pointer = getcwd(nil, 0) else { return "/" }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
