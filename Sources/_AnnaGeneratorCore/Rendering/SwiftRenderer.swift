import Foundation
import Mustache

/// Renders a ``RenderModel`` into Swift source with Mustache templates.
///
/// The built-in templates (a copy of `Templates/`) are used unless a directory of
/// the user's own is given; a user's directory may replace any of `file`, `enum`
/// and `event`.
public struct SwiftRenderer: Sendable {
    private let library: MustacheLibrary

    /// A renderer with the built-in templates.
    public init() {
        // The built-in templates are tested to parse; a failure here is a bug in anna.
        self.library = (try? Self.library(from: DefaultTemplates.all)) ?? MustacheLibrary()
    }

    /// A renderer with templates from a directory, falling back to the built-in ones.
    /// - Parameter directory: A folder of `NAME.mustache` files.
    /// - Throws: ``TemplateError`` when the folder cannot be read or a template does not parse.
    public init(templatesDirectory directory: URL) throws(TemplateError) {
        var sources = DefaultTemplates.all
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "mustache" }
        } catch {
            throw TemplateError(file: directory.path, message: "cannot read the templates folder: \(error.localizedDescription)")
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file.path),
                  let text = String(data: data, encoding: .utf8) else {
                throw TemplateError(file: file.path, message: "cannot read the template as UTF-8 text")
            }
            sources[file.deletingPathExtension().lastPathComponent] = text
        }
        self.library = try Self.library(from: sources, directory: directory.path)
    }

    private static func library(from sources: [String: String], directory: String = "<built-in>") throws(TemplateError) -> MustacheLibrary {
        var library = MustacheLibrary()
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            do {
                try library.register(source, named: name)
            } catch {
                throw TemplateError(file: "\(directory)/\(name).mustache", message: "the template does not parse: \(error)")
            }
        }
        return library
    }

    /// Renders a model with the `file` template.
    /// - Parameter model: What to render.
    /// - Returns: Swift source, ending in exactly one newline.
    package func render(_ model: RenderModel) -> String {
        var output = library.render(model, withTemplate: "file") ?? ""
        while output.hasSuffix("\n\n") { output.removeLast() }
        if !output.hasSuffix("\n") { output += "\n" }
        return output
    }
}

/// A user's template could not be used.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    /// The template file or folder.
    public var file: String
    /// What went wrong.
    public var message: String

    /// `path: error: message`.
    public var description: String { "\(file): error: \(message)" }
}
