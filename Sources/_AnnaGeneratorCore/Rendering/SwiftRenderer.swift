/// Renders a ``RenderModel`` into Swift source.
///
/// The built-in templates (`Templates/`) are rendered by Swift code compiled from
/// them (``CompiledTemplates``), which is many times faster than interpreting them
/// and needs no template engine: the tool the build plugin runs compiles only this.
/// `anna generate --templates DIR` swaps in another ``TemplateEngine`` (the Mustache
/// one, in `_AnnaGovernance`).
///
/// Immutable after creation, so it can be shared between threads.
package struct SwiftRenderer: Sendable {
    /// What turns the model into text.
    package let engine: any TemplateEngine

    /// A renderer with the built-in templates.
    package init() {
        self.engine = CompiledTemplateEngine()
    }

    /// A renderer with another engine.
    /// - Parameter engine: What renders the `file` template.
    package init(engine: any TemplateEngine) {
        self.engine = engine
    }

    /// Renders a model with the `file` template.
    /// - Parameter model: What to render.
    /// - Returns: Swift source, ending in exactly one newline.
    package func render(_ model: RenderModel) -> String {
        Self.endingInOneNewline(engine.renderFile(model))
    }

    /// `text` with its trailing blank lines removed and one newline at its end.
    static func endingInOneNewline(_ text: String) -> String {
        var output = text
        while output.hasSuffix("\n\n") { output.removeLast() }
        if !output.hasSuffix("\n") { output += "\n" }
        return output
    }

    /// Renders a model with the `file` template, as ``render(_:)`` does, followed by
    /// its catalog (``CatalogRenderer``): the whole generated file.
    /// - Parameter model: What to render.
    /// - Returns: Swift source, ending in exactly one newline.
    package func renderWithCatalog(_ model: RenderModel) -> String {
        var out = SourceText(capacity: CompiledTemplates.estimatedSize(of: model) + CatalogRenderer.estimatedSize(of: model.catalog))
        renderText(withCatalogOf: model, into: &out)
        return out.string
    }

    /// Writes the whole generated file as ``renderWithCatalog(_:)`` renders it, as
    /// bytes, at the end of `out`, which may drain as it fills. The built-in templates
    /// write straight into the buffer the catalog follows in, so the file is never put
    /// together from strings of its parts.
    func renderText(withCatalogOf model: RenderModel, into out: inout SourceText) {
        engine.writeFile(model, into: &out)
        CatalogRenderer.render(model.catalog, into: &out)
    }
}
