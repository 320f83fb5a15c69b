import AnnaRules

extension SpecTranslator {
    /// The ` - Parameters:` doc lines of the documented ones; empty when none is.
    func parameterDocLines(_ ordered: [TrackingSpec.Parameter]) -> [String] {
        guard ordered.contains(where: { !($0.description?.isBlank ?? true) }) else { return [] }
        let documented = ordered.compactMap { parameter -> (String, [String])? in
            let text = docLines(parameter.description)
            return text.isEmpty ? nil : (parameter.swiftName, text)
        }
        var lines = [" - Parameters:"]
        for (name, text) in documented {
            lines.append("   - \(name):\(text.first ?? "")")
            lines.append(contentsOf: text.dropFirst().map { "    \($0)" })
        }
        return lines
    }
}
