@_spi(Generated) import Anna

/// What a page's message may name, looked up once per bridge: the catalog's events,
/// screens and property sets, and their names as `anna generate --naming snake_case`
/// writes them, mapped back to the spec's.
struct CatalogNames: Sendable {
    /// A descriptor of the catalog: an event, a screen, or a set of properties.
    enum Key: Hashable, Sendable {
        case event(String)
        case screen(String)
        case traits, groupTraits, globals
    }

    /// The spec's names by their snake_case form; `nil` when two names share one.
    private typealias SnakeNames = [String: String?]

    private let screens: [String: EventDescriptor]
    private let eventNames: SnakeNames
    private let screenNames: SnakeNames
    private let parameterNames: [Key: SnakeNames]
    private let objectPropertyNames: SnakeNames

    init(_ catalog: EventCatalog) {
        let calls = catalog.calls
        screens = Dictionary(calls.screens.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        eventNames = Self.snakeNames(catalog.events.map(\.name))
        screenNames = Self.snakeNames(calls.screens.map(\.name))
        var parameterNames: [Key: SnakeNames] = [:]
        for event in catalog.events { parameterNames[.event(event.name)] = Self.snakeNames(event.parameters.map(\.name)) }
        for screen in calls.screens { parameterNames[.screen(screen.name)] = Self.snakeNames(screen.parameters.map(\.name)) }
        for (key, set) in [(Key.traits, calls.traits), (.groupTraits, calls.groupTraits), (.globals, calls.globals)] {
            if let set { parameterNames[key] = Self.snakeNames(set.parameters.map(\.name)) }
        }
        self.parameterNames = parameterNames
        objectPropertyNames = Self.snakeNames(calls.objectProperties)
    }

    private static func snakeNames(_ names: [String]) -> SnakeNames {
        var map: SnakeNames = [:]
        for name in names {
            let snake = SnakeCaseEventMapper.snakeCase(name)
            map[snake] = map[snake] == nil ? .some(name) : .some(nil)
        }
        return map
    }

    private static func spec(_ name: String, in map: SnakeNames?, naming: WebContentMessage.Naming) -> String {
        guard naming == .snakeCase, let found = map?[name], let found else { return name }
        return found
    }

    /// The spec's name of an event named in `naming`; the name itself when unknown.
    func event(_ name: String, naming: WebContentMessage.Naming) -> String {
        Self.spec(name, in: eventNames, naming: naming)
    }

    /// A screen, by its name in `naming`.
    func screen(_ name: String, naming: WebContentMessage.Naming) -> EventDescriptor? {
        screens[Self.spec(name, in: screenNames, naming: naming)]
    }

    /// The spec's name of a property of a descriptor, named in `naming`; the name itself when unknown.
    func parameter(_ name: String, of key: Key, naming: WebContentMessage.Naming) -> String {
        Self.spec(name, in: parameterNames[key], naming: naming)
    }

    /// A value with the keys of its objects, at any depth, named as the spec names
    /// the properties of object types.
    func objectKeys(in json: JSONValue, naming: WebContentMessage.Naming) -> JSONValue {
        guard naming == .snakeCase else { return json }
        switch json {
        case .array(let elements):
            return .array(elements.map { objectKeys(in: $0, naming: naming) })
        case .object(let fields):
            var renamed: [String: JSONValue] = [:]
            for (key, value) in fields { renamed[Self.spec(key, in: objectPropertyNames, naming: naming)] = objectKeys(in: value, naming: naming) }
            return .object(renamed)
        default:
            return json
        }
    }
}
