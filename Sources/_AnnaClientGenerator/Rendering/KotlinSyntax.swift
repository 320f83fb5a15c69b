import _AnnaGeneratorCore

/// Kotlin as ``ClientWalk`` prints it: one file of `enum class`es with their wire
/// values, data classes for object types, and a class with one typed function per
/// event (optional properties default to `null` and are left out of the payload)
/// that sends through the app's own `AnnaClient` (analytics-kotlin through a few
/// lines ClientsInOtherLanguages.md shows).
///
/// Written for Kotlin 1.3 and later (no trailing commas, no `uppercase()`), so
/// Debian's `kotlinc` compiles it.
struct KotlinSyntax: ClientSyntax {
    /// The file's `package`, if any.
    var package: String?

    static let reservedTypes = KotlinNaming.reservedTypes
    static let typeKeywords: Set<String> = []
    static let indentUnit = "    "
    static let functionWord = "function"
    static let bytesPerDeclaration = 300
    static let globalsInOneSetter = false

    // `put`, a member, not the `set` operator, an extension: kotlinc resolves it faster.
    static let templates = ClientTemplates(#"""
store: {target}.put({key}, {value})
piiGuard: if (anna_context.sendPII) {store} else anna_leftOut(anna_context, {path})
setGuard: if ({access} != null) { {statement} }
null: null
context: val anna_context = anna_context({call})
map: val {name} = LinkedHashMap<String, Any?>()
payload: anna_payload
element: anna_element
copyList: {list}.toList()
mapList: {list}.map { anna_element -> {value} }
parameterDoc: {identifier}
sendEvent: anna_send(true, {name}, {consent}, anna_payload{version})
sendScreen: anna_send(false, {name}, {consent}, anna_payload{version})
sendTraits: if (anna_options.isConsented?.invoke("analytics") != false) anna_client.{call}({argument}, anna_payload)
traitsOpen: fun {call}({identity}, {parameters}) {
identify: userId: String?
group: groupId: String
eventClose: }\n
screenClose: }\n\n
screensOpen: \n    /** The screens of the plan, each sent as a `screen` call. */\n    val screens = AnnaScreens()\n\n    /** The screens of the plan. */\n    inner class AnnaScreens {\n
screensClose:     }\n
globals: anna_globals
globalAccess: value
removeGlobal: if ({access} == null) anna_globals.remove({key})
globalsOpen: \n    /** Global properties, sent with every event and screen once set. */\n    val globals = AnnaGlobals()\n\n    /** Setters of the plan's global properties; `null` removes one. */\n    inner class AnnaGlobals {\n
globalsClose:     }\n
globalsDepth: 2
objectMap: anna_object
pathParameter: anna_path
fieldAccess: anna_value.{field}
converterClose:         return anna_object\n    }\n
converterDepth: 2
objectConversion: anna_object{index}(anna_context, {path}, {element})
enumWire: {element}.wire
iso8601: anna_iso8601({element})
absoluteURL: {element}.toString()
uppercasedUUID: anna_uppercase({element}.toString())
integerCheck: anna_long(anna_context, {path}, {element}, {min}, {max})
doubleCheck: anna_double(anna_context, {path}, {element}, {min}, {max})
textCheck: anna_text(anna_context, {path}, {element}, {minLength}, {maxLength}, {pattern})
"""#)

    func string(_ text: String) -> String {
        ClientText.quoted(text, escapingDollar: true)
    }

    func number(_ value: Double) -> String {
        ClientText.double(value)
    }

    /// Keywords in backticks.
    func fieldName(_ identifier: String) -> String {
        KotlinNaming.escaped(identifier)
    }

    // MARK: The file

    var fileStart: String {
        guard let package else { return "" }
        return "\npackage \(package.split(separator: ".").map { KotlinNaming.escaped(String($0)) }.joined(separator: "."))\n"
    }

    func enumeration(_ name: String, cases: [ClientModel.EnumerationCase]) -> String {
        var out = "enum class \(name)(val wire: String) {\n"
        out += cases.map { "    \(KotlinNaming.entry($0.identifier))(\(string($0.wire)))" }.joined(separator: ",\n")
        return out + (cases.isEmpty ? "    ;\n}\n" : ";\n}\n")
    }

    func object(_ name: String, properties: [ClientModel.Property], types: ClientTypeNames) -> String {
        guard !properties.isEmpty else { return "class \(name)\n" }
        var out = "data class \(name)(\n"
        out += Self.requiredFirst(properties).map { property in
            ClientText.docComment(ClientText.propertyDocLines(property, piiOption: "sendPII"), indent: "    ")
                + "    val \(KotlinNaming.escaped(property.identifier)): \(type(property, types: types))\(property.isOptional ? " = null" : "")"
        }.joined(separator: ",\n")
        return out + "\n)\n"
    }

    func beforeClient(_ helpers: ClientModel.Helpers, plan: ClientModel.Plan?) -> String {
        ""
    }

    func clientOpen(_ name: String, helpers: ClientModel.Helpers, hasGlobals: Bool, plan: ClientModel.Plan?) -> String {
        var out = "class \(name)(private val anna_client: AnnaClient, private val anna_options: AnnaOptions = AnnaOptions()) {\n"
        out += plan == nil ? Self.nestedTypes : Self.versionedNestedTypes
        if helpers.contains(.context) { out += Self.contextType }
        return out + "    private val anna_globals = LinkedHashMap<String, Any?>()\n"
    }

    func clientClose(helpers: ClientModel.Helpers, hasGlobals: Bool, plan: ClientModel.Plan?, converters: String) -> String {
        var out = converters
        for (helper, text) in Self.helpers where helpers.contains(helper) {
            if helper == .send, let plan { out += versionedSend(plan) } else { out += text }
        }
        return out + "}\n"
    }

    // MARK: Calls

    func callDoc(_ lines: [String], deprecation: String?, indent: String) -> String {
        let out = ClientText.docComment(lines, indent: indent)
        guard let deprecation else { return out }
        return out + "\(indent)@Deprecated(\(string(deprecation.isEmpty ? "Deprecated in the tracking plan." : deprecation)))\n"
    }

    func callOpen(_ kind: ClientCallKind, identifier: String, parameters: String, indent: String) -> String {
        "\(indent)fun \(KotlinNaming.method(identifier))(\(parameters)) {\n"
    }

    /// A parameter per property, the optional ones defaulting to `null`: required ones
    /// first, then optional ones, each in file order, as Swift's factories take them.
    func parameters(_ properties: [ClientModel.Property], role: ClientParameterRole, types: ClientTypeNames) -> String {
        Self.requiredFirst(properties).map { property in
            "\(access(property, role: role)): \(type(property, types: types))\(property.isOptional ? " = null" : "")"
        }.joined(separator: ", ")
    }

    func access(_ property: ClientModel.Property, role: ClientParameterRole) -> String {
        role == .call ? KotlinNaming.escaped(property.identifier) : KotlinNaming.trait(property.identifier)
    }

    /// A setter per global, documented as the global is.
    func globalsSetterOpen(_ globals: [ClientModel.Property], types: ClientTypeNames) -> String {
        globals.map { global in
            ClientText.docComment(ClientText.propertyDocLines(global, piiOption: "sendPII"), indent: "        ")
                + "        fun \(KotlinNaming.method(global.identifier))(value: \(type(global, types: types))) {\n"
        }.joined()
    }

    /// A private function of the class turning a value into its wire map.
    func converterOpen(index: Int, type: String, readsContext: Bool, isEmpty: Bool) -> String {
        "\n    @Suppress(\"UNUSED_PARAMETER\")\n"
            + "    private fun anna_object\(index)(anna_context: AnnaContext, anna_path: String, anna_value: \(type)): Map<String, Any?> {\n"
            + "        val anna_object = LinkedHashMap<String, Any?>()\n"
    }

    /// Required properties first, then optional ones, each in file order: the order of
    /// Swift's factories and initializers, so a call passes its arguments in one order in both.
    static func requiredFirst(_ properties: [ClientModel.Property]) -> [ClientModel.Property] {
        properties.filter { !$0.isOptional } + properties.filter(\.isOptional)
    }

    // MARK: Types

    private func type(_ property: ClientModel.Property, types: ClientTypeNames) -> String {
        let base: String
        switch property.type {
        case .string: base = "String"
        case .int: base = "Long"
        case .double: base = "Double"
        case .bool: base = "Boolean"
        case .date: base = "java.time.Instant"
        case .url: base = "java.net.URI"
        case .uuid: base = "java.util.UUID"
        case .enumeration(let index): base = types.enums[index]
        case .object(let index): base = types.objects[index]
        }
        return (property.isArray ? "List<\(base)>" : base) + (property.isOptional ? "?" : "")
    }
}
