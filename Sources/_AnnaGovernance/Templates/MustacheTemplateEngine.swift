import Foundation
import Mustache
import _AnnaGeneratorCore

/// A user's Mustache templates, interpreted: `anna generate --templates DIR`.
///
/// Apart from the pipeline, so that the tool the build plugin runs, which only
/// renders the built-in templates, never compiles a template engine.
package struct MustacheTemplateEngine: TemplateEngine {
    /// The templates, each registered under its name.
    let library: MustacheLibrary

    /// An engine over templates given as text.
    /// - Parameters:
    ///   - sources: Template name to source; needs at least `file`.
    ///   - directory: Where they came from, for errors.
    /// - Throws: ``TemplateError`` when a template does not parse.
    package init(sources: [String: String], directory: String = "<built-in>") throws(TemplateError) {
        var library = MustacheLibrary()
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            do {
                try library.register(source, named: name)
            } catch {
                throw TemplateError(file: "\(directory)/\(name).mustache", message: "the template does not parse: \(error)")
            }
        }
        self.library = library
    }

    /// The `file` template rendered by Mustache.
    /// - Parameter model: What to render.
    /// - Returns: The template's text.
    package func renderFile(_ model: RenderModel) -> String {
        library.render(model, withTemplate: "file") ?? ""
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
