/// Renders the `file` template of a ``RenderModel``: the built-in templates compiled
/// to Swift, or a user's templates interpreted.
package protocol TemplateEngine: Sendable {
    /// The `file` template rendered, before ``SwiftRenderer`` trims its trailing lines.
    /// - Parameter model: What to render.
    /// - Returns: The template's text.
    func renderFile(_ model: RenderModel) -> String
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
}
