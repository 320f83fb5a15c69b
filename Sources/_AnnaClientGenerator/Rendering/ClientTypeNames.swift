import _AnnaGeneratorCore

/// The names a client file gives a model's declared types and its client class:
/// unique, and clear of the names its language reserves.
struct ClientTypeNames {
    var enums: [String]
    var objects: [String]
    var client: String

    /// - Parameters:
    ///   - reserved: Type names the file uses or declares; a spec's type so named takes a trailing `_`.
    ///   - keywords: Words that cannot name a type; such a name takes a trailing `_`.
    init(_ model: ClientModel, reserved: Set<String>, keywords: Set<String> = []) {
        var taken = reserved
        func claim(_ name: String) -> String {
            var name = keywords.contains(name) ? name + "_" : name
            while taken.contains(name) { name += "_" }
            taken.insert(name)
            return name
        }
        client = claim(model.clientName)
        enums = model.enums.map { claim($0.identifier) }
        objects = model.objects.map { claim($0.identifier) }
    }
}
