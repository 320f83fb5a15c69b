@_spi(Generated) import Anna

/// A catalog's names as `anna generate --naming snake_case` writes them, mapped back to
/// the spec's: the event names, and each event's parameter names.
struct CatalogNames: Sendable {
    /// The spec's names by their snake_case form; `nil` when two names share one.
    private let events: [String: String?]
    private let parameters: [String: [String: String?]]

    init(_ catalog: EventCatalog) {
        var events: [String: String?] = [:]
        var parameters: [String: [String: String?]] = [:]
        for event in catalog.events {
            Self.add(event.name, to: &events)
            var names: [String: String?] = [:]
            for parameter in event.parameters { Self.add(parameter.name, to: &names) }
            parameters[event.name] = names
        }
        self.events = events
        self.parameters = parameters
    }

    private static func add(_ name: String, to map: inout [String: String?]) {
        let snake = SnakeCaseEventMapper.snakeCase(name)
        map[snake] = map[snake] == nil ? .some(name) : .some(nil)
    }

    /// The spec's name of an event named in `naming`; the name itself when unknown.
    func event(_ name: String, naming: WebContentMessage.Naming) -> String {
        guard naming == .snakeCase, let found = events[name], let found else { return name }
        return found
    }

    /// The spec's name of a parameter of `event` named in `naming`; the name itself when unknown.
    func parameter(_ name: String, of event: String, naming: WebContentMessage.Naming) -> String {
        guard naming == .snakeCase, let found = parameters[event]?[name], let found else { return name }
        return found
    }
}
