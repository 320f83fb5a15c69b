/// Paths between a generated file and its spec, shared by the generator, which
/// writes the spec's path relative to the generated file, and by the catalog at run
/// time, which resolves it against the file's `#filePath`: one rule, so the two
/// agree on every path.
///
/// Paths are taken by their text, as `URL.standardized` takes them: `.` goes, and
/// `..` takes the component before it away, without asking the file system.
package enum SpecPath {
    /// A path's components without `.` or empty ones, each `..` taking away the
    /// component before it. Above the root, `..` goes; at the start of a relative
    /// path, it stays (`../a` is `..`, `a`).
    /// - Parameter path: A path.
    /// - Returns: The components, and whether the path is absolute.
    package static func components(of path: String) -> (components: [Substring], isAbsolute: Bool) {
        let isAbsolute = path.hasPrefix("/")
        var components: [Substring] = []
        for component in path.split(separator: "/") {
            switch component {
            case ".":
                continue
            case "..":
                if let last = components.last, last != ".." {
                    components.removeLast()
                } else if !isAbsolute {
                    components.append(component)
                }
            default:
                components.append(component)
            }
        }
        return (components, isAbsolute)
    }

    /// `relativePath` resolved against the folder of `file`, as a plain path.
    /// - Parameters:
    ///   - relativePath: A path from the folder of `file`; returned as it is when absolute.
    ///   - file: A file's path, e.g. a generated file's `#filePath`.
    /// - Returns: The path, absolute when `file` is.
    package static func resolve(_ relativePath: String, besideFile file: String) -> String {
        if relativePath.hasPrefix("/") { return relativePath }
        let folder = file.lastIndex(of: "/").map { String(file[...$0]) } ?? ""
        let (components, isAbsolute) = components(of: folder + relativePath)
        return (isAbsolute ? "/" : "") + components.joined(separator: "/")
    }

    /// The path of `target` relative to the folder of `file`, both absolute.
    /// - Returns: For example `../app.anna.yml` for `/r/Sources/App/app.anna.yml`
    ///   from `/r/Sources/App/AnnaGenerated/app.anna.swift`.
    package static func relative(_ target: String, fromFolderOf file: String) -> String {
        let target = components(of: target).components
        let folder = components(of: file).components.dropLast()
        var shared = 0
        while shared < folder.count, shared < target.count - 1, folder[shared] == target[shared] { shared += 1 }
        let up = Array(repeating: Substring(".."), count: folder.count - shared)
        return (up + target[shared...]).joined(separator: "/")
    }
}
