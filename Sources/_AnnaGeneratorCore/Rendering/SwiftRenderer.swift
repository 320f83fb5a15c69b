import Foundation
import Mustache

/// Renders a ``RenderModel`` into Swift source.
///
/// The built-in templates (`Templates/`) are rendered by Swift code compiled from
/// them, which is many times faster than interpreting them. A directory of the
/// user's own may replace any of `file`, `enum`, `event`, `screen` and `property`;
/// then the whole file is rendered with Mustache, from the user's templates and the
/// built-in ones.
///
/// Immutable after creation, so it can be shared between threads.
package struct SwiftRenderer: Sendable {
    /// How a renderer renders.
    enum Engine: Sendable {
        /// ``CompiledTemplates``: the built-in templates as Swift.
        case compiled
        /// Mustache templates, each registered under its name.
        case mustache(MustacheLibrary)
    }

    let engine: Engine

    /// A renderer with the built-in templates.
    package init() {
        self.engine = .compiled
    }

    /// A renderer with templates from a directory, falling back to the built-in ones.
    /// - Parameter directory: A folder of `NAME.mustache` files.
    /// - Throws: ``TemplateError`` when the folder cannot be read or a template does not parse.
    package init(templatesDirectory directory: URL) throws(TemplateError) {
        var sources = DefaultTemplates.all
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "mustache" }
        } catch {
            throw TemplateError(file: directory.path, message: "cannot read the templates folder: \(error.localizedDescription)")
        }
        // A folder without templates changes nothing, so the compiled templates serve.
        guard !files.isEmpty else {
            self.engine = .compiled
            return
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file.path),
                  let text = String(data: data, encoding: .utf8) else {
                throw TemplateError(file: file.path, message: "cannot read the template as UTF-8 text")
            }
            sources[file.deletingPathExtension().lastPathComponent] = text
        }
        self.engine = .mustache(try Self.library(from: sources, directory: directory.path))
    }

    /// A renderer that interprets the given Mustache templates, even the built-in
    /// ones, so tests and benchmarks can compare the two ways of rendering.
    /// - Parameter sources: Template name to source; needs at least `file`.
    init(mustacheTemplates sources: [String: String]) throws(TemplateError) {
        self.engine = .mustache(try Self.library(from: sources))
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
        var output: String
        switch engine {
        case .compiled:
            output = CompiledTemplates.file(model)
        case .mustache(let library):
            output = library.render(model, withTemplate: "file") ?? ""
        }
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
