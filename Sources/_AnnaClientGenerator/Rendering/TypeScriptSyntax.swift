import AnnaRules
import _AnnaGeneratorCore

/// TypeScript as ``ClientWalk`` prints it: one module of string-literal unions for
/// enums, interfaces for object types, and a class with one typed method per event
/// that sends through the app's own `AnnaClient`-shaped object (Segment's
/// analytics-next as it is; analytics-node through a few lines ClientsInOtherLanguages.md shows).
///
/// The module needs only ES5's library (`Record`, `Date.toISOString`) and passes
/// `tsc --strict`. It ends with `annaWebViewClient`, the client of a page in the
/// app's `WKWebView` (``webViewClient(naming:isVersioned:)``).
struct TypeScriptSyntax: ClientSyntax {
    /// The names the module sends, which the web-view client tells the app.
    var naming: ClientNaming = .spec

    static let reservedTypes = TypeScriptNaming.reservedTypes
    static let typeKeywords = TypeScriptNaming.keywords
    static let indentUnit = "  "
    static let functionWord = "method"
    static let bytesPerDeclaration = 256
    static let globalsInOneSetter = true

    static let templates = ClientTemplates(#"""
store: {target}[{key}] = {value};
piiGuard: { if (context.sendPII) {store} else annaLeftOut(context, {path}); }
setGuard: if ({access} !== undefined) {statement}
null: undefined
context: const context = this.annaContext({call});
map: const {name}: { [key: string]: unknown } = {};
payload: payload
element: element
copyList: {list}.slice()
mapList: {list}.map((element) => {value})
parameterDoc: properties.{identifier}
sendEvent: this.annaSend("track", {name}, {consent}, payload{version});
sendScreen: this.annaSend("page", {name}, {consent}, payload{version});
sendTraits: if (this.options.isConsented === undefined || this.options.isConsented("analytics")) this.client.{call}({argument}, payload);
traitsOpen: {call}({identity}, {parameters}): void {
identify: userId: string | undefined
group: groupId: string
eventClose: }\n
screenClose: },\n
screensOpen: \n  /** The screens of the plan, each sent as a `page` call. */\n  readonly screens = {\n
screensClose:   };\n
globals: this.annaGlobals
globalAccess: globals.{identifier}
removeGlobal: if ({access} === null) delete this.annaGlobals[{key}];
globalsOpen:
globalsClose:
globalsDepth: 1
objectMap: object
pathParameter: path
fieldAccess: value.{field}
converterClose:   return object;\n}\n
converterDepth: 1
objectConversion: annaObject{index}(context, {path}, {element})
enumWire: {element}
iso8601: {element}.toISOString()
absoluteURL: {element}
uppercasedUUID: {element}.toUpperCase()
integerCheck: annaNumber(context, {path}, {element}, {min}, {max})
doubleCheck: annaNumber(context, {path}, {element}, {min}, {max})
textCheck: annaText(context, {path}, {element}, {minLength}, {maxLength}, {pattern})
"""#)

    func string(_ text: String) -> String {
        ClientText.quoted(text)
    }

    func number(_ value: Double) -> String {
        value.compactDescription
    }

    /// Fields are property names, where TypeScript allows every word.
    func fieldName(_ identifier: String) -> String {
        identifier
    }

    // MARK: The file

    var fileStart: String { "" }

    func enumeration(_ name: String, cases: [ClientModel.EnumerationCase]) -> String {
        let values = cases.map { ClientText.quoted($0.wire) }
        return "export type \(name) = \(values.isEmpty ? "never" : values.joined(separator: " | "));\n"
    }

    func object(_ name: String, properties: [ClientModel.Property], types: ClientTypeNames) -> String {
        var out = "export interface \(name) {\n"
        for property in properties {
            out += ClientText.docComment(ClientText.propertyDocLines(property, piiOption: "sendPII"), indent: "  ")
            out += "  readonly \(property.identifier)\(property.isOptional ? "?" : ""): \(type(property, types: types));\n"
        }
        return out + "}\n"
    }

    func beforeClient(_ helpers: ClientModel.Helpers, plan: ClientModel.Plan?) -> String {
        var out = plan == nil ? Self.support : Self.versionedSupport
        if helpers.contains(.context) { out += Self.contextSupport }
        if helpers.contains(.report) { out += Self.reportSupport }
        if helpers.contains(.numberCheck) { out += Self.numberSupport }
        if helpers.contains(.textCheck) { out += Self.textSupport }
        if helpers.contains(.leftOut) { out += Self.leftOutSupport }
        return out
    }

    func clientOpen(_ name: String, helpers: ClientModel.Helpers, hasGlobals: Bool, plan: ClientModel.Plan?) -> String {
        var out = "export class \(name) {\n"
        if hasGlobals { out += "  private readonly annaGlobals: { [key: string]: unknown } = {};\n\n" }
        out += "  /**\n   * @param client The app's analytics client.\n   * @param options Checks in development, PII and consent.\n   */\n"
        return out + "  constructor(readonly client: AnnaClient, readonly options: AnnaOptions = {}) {}\n"
    }

    func clientClose(helpers: ClientModel.Helpers, hasGlobals: Bool, plan: ClientModel.Plan?, converters: String) -> String {
        var out = helpers.contains(.context) ? Self.contextMethod : ""
        if helpers.contains(.send) {
            out += plan.map { Self.versionedSendMethod(globals: hasGlobals, plan: $0, string: string) } ?? Self.sendMethod(globals: hasGlobals)
        }
        return out + "}\n" + converters + Self.webViewClient(naming: naming, isVersioned: plan != nil)
    }

    // MARK: Calls

    func callDoc(_ lines: [String], deprecation: String?, indent: String) -> String {
        guard let deprecation else { return ClientText.docComment(lines, indent: indent) }
        return ClientText.docComment(lines + ["@deprecated" + (deprecation.isEmpty ? "" : " " + deprecation)], indent: indent)
    }

    func callOpen(_ kind: ClientCallKind, identifier: String, parameters: String, indent: String) -> String {
        switch kind {
        case .event: "\(indent)\(TypeScriptNaming.method(identifier))(\(parameters)): void {\n"
        case .screen: "\(indent)\(identifier): (\(parameters)): void => {\n"
        }
    }

    /// The one parameter of a call: an object with a field per property, or nothing.
    func parameters(_ properties: [ClientModel.Property], role: ClientParameterRole, types: ClientTypeNames) -> String {
        guard !properties.isEmpty else { return "" }
        let fields = properties.map { property in
            "readonly \(property.identifier)\(property.isOptional ? "?" : ""): \(type(property, types: types))"
        }
        let optional = role == .traits || properties.allSatisfy(\.isOptional)
        return "properties: { \(fields.joined(separator: "; ")) }" + (optional ? " = {}" : "")
    }

    func access(_ property: ClientModel.Property, role: ClientParameterRole) -> String {
        "properties.\(property.identifier)"
    }

    /// The one setter of every global, each optional, `null` removing one.
    func globalsSetterOpen(_ globals: [ClientModel.Property], types: ClientTypeNames) -> String {
        var out = "\n  /**\n   * Sets global properties, sent with every event and screen from now on; `null` removes one.\n   */\n"
        let fields = globals.map { "\($0.identifier)?: \(type($0, types: types)) | null" }
        out += "  setGlobals(globals: { \(fields.joined(separator: "; ")) }): void {\n"
        return out
    }

    /// A function outside the class turning a value into its wire object.
    func converterOpen(index: Int, type: String, readsContext: Bool, isEmpty: Bool) -> String {
        // Parameters a converter does not read start with `_`, which noUnusedParameters allows.
        let prefix = readsContext ? "" : "_"
        let value = isEmpty ? "_value" : "value"
        return "\nfunction annaObject\(index)(\(prefix)context: AnnaContext, \(prefix)path: string, \(value): \(type)): { [key: string]: unknown } {\n"
            + "  const object: { [key: string]: unknown } = {};\n"
    }

    // MARK: Types

    private func type(_ property: ClientModel.Property, types: ClientTypeNames) -> String {
        let base: String
        switch property.type {
        case .string, .url, .uuid: base = "string"
        case .int, .double: base = "number"
        case .bool: base = "boolean"
        case .date: base = "Date"
        case .enumeration(let index): base = types.enums[index]
        case .object(let index): base = types.objects[index]
        }
        return property.isArray ? "ReadonlyArray<\(base)>" : base
    }
}
