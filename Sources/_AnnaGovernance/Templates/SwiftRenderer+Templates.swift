import Foundation
import _AnnaGeneratorCore

extension SwiftRenderer {
    /// A renderer with templates from a directory, falling back to the built-in ones.
    ///
    /// A user's template may replace any of `file`, `enum`, `event`, `screen` and
    /// `property`; then the whole file is rendered with Mustache, from the user's
    /// templates and the built-in ones. A folder without templates keeps the
    /// compiled templates.
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
        guard !files.isEmpty else {
            self.init()
            return
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file.path),
                  let text = String(data: data, encoding: .utf8) else {
                throw TemplateError(file: file.path, message: "cannot read the template as UTF-8 text")
            }
            sources[file.deletingPathExtension().lastPathComponent] = text
        }
        self.init(engine: try MustacheTemplateEngine(sources: sources, directory: directory.path))
    }

    /// A renderer that interprets the given Mustache templates, even the built-in
    /// ones, so tests and benchmarks can compare the two ways of rendering.
    /// - Parameter sources: Template name to source; needs at least `file`.
    /// - Throws: ``TemplateError`` when a template does not parse.
    package init(mustacheTemplates sources: [String: String]) throws(TemplateError) {
        self.init(engine: try MustacheTemplateEngine(sources: sources))
    }
}

extension AnnaGenerator {
    /// A generator with a folder of Mustache templates (`file`, `enum`, `event`)
    /// replacing the built-in ones, as `anna generate --templates DIR` does.
    /// - Parameter directory: A folder of `NAME.mustache` files.
    /// - Throws: ``TemplateError`` when the folder cannot be read or a template does not parse.
    public init(templatesDirectory directory: URL) throws(TemplateError) {
        self.init(renderer: try SwiftRenderer(templatesDirectory: directory))
    }
}
