import Foundation

/// How a spec's path is shown: from the working directory when the spec is under it,
/// as GitHub's annotations and the page name it, even when it was given absolute.
package enum SpecPath {
    /// The inspector's working directory, read once.
    static let workingDirectory = FileManager.default.currentDirectoryPath

    /// `file` relative to `directory` when it is under it; as given otherwise.
    package static func shown(_ file: String, from directory: String = workingDirectory) -> String {
        let root = directory.hasSuffix("/") ? directory : directory + "/"
        return file.hasPrefix(root) ? String(file.dropFirst(root.count)) : file
    }
}
