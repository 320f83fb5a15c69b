/// Renders the `file` template of a ``RenderModel``: the built-in templates compiled
/// to Swift, or a user's templates interpreted.
package protocol TemplateEngine: Sendable {
    /// The `file` template rendered, before ``SwiftRenderer`` trims its trailing lines.
    /// - Parameter model: What to render.
    /// - Returns: The template's text.
    func renderFile(_ model: RenderModel) -> String

    /// Writes the `file` template, ending in exactly one newline, at the end of `out`
    /// (which may drain as it fills). By default, ``renderFile(_:)`` trimmed as
    /// ``SwiftRenderer/render(_:)`` trims it; the built-in engine writes straight into `out`.
    /// - Parameters:
    ///   - model: What to render.
    ///   - out: The generated file so far.
    func writeFile(_ model: RenderModel, into out: inout SourceText)
}

extension TemplateEngine {
    package func writeFile(_ model: RenderModel, into out: inout SourceText) {
        out += SwiftRenderer.endingInOneNewline(renderFile(model))
    }
}

/// The built-in templates as compiled Swift (``CompiledTemplates``).
package struct CompiledTemplateEngine: TemplateEngine {
    /// The built-in engine.
    package init() {}

    /// The `file` template rendered by ``CompiledTemplates``.
    /// - Parameter model: What to render.
    /// - Returns: The template's text.
    package func renderFile(_ model: RenderModel) -> String {
        CompiledTemplates.file(model)
    }

    /// The `file` template written by ``CompiledTemplates`` into `out`, with no
    /// intermediate string.
    /// - Parameters:
    ///   - model: What to render.
    ///   - out: The generated file so far.
    package func writeFile(_ model: RenderModel, into out: inout SourceText) {
        CompiledTemplates.file(model, into: &out)
        out.endWithOneNewline()
    }
}
