import _AnnaGeneratorCore

/// The names TypeScript reserves, and how the generated module avoids them.
///
/// Event methods and screen keys are property names, where TypeScript allows every
/// reserved word (`delete`, `enum`, `interface`): only the class's own members are
/// renamed, with a trailing `_`. Type names are upper camel case, so never a keyword;
/// those that would hide a global type the module uses (`Record`, `Date`) or one it
/// declares (`AnnaClient`) take a trailing `_`.
enum TypeScriptNaming {
    /// Members of the generated class and of every object.
    static let classMembers: Set<String> = [
        "constructor", "identify", "group", "setGlobals", "screens", "client", "options",
        "annaGlobals", "annaContext", "annaSend", "toString", "valueOf", "hasOwnProperty",
        "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "__proto__", "prototype",
    ]

    /// Types a generated module refers to or declares.
    static let reservedTypes: Set<String> = [
        "AnnaClient", "AnnaViolation", "AnnaOptions", "AnnaContext", "AnnaPlan", "AnnaCallOptions",
        "AnnaWebViewOptions", "AnnaWebViewClient", "AnnaWebKitGlobal", "AnnaMessageHandler", "AnnaWebView", "Record", "Date", "ReadonlyArray", "Array",
        "RegExp", "Object", "String", "Number", "Boolean", "Error", "Symbol", "Function", "JSON", "Math",
        "Partial", "Promise", "Map", "Set",
    ]

    /// Every name TypeScript reserves, for names that are bindings.
    static let keywords: Set<String> = [
        "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
        "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
        "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
        "while", "with", "implements", "interface", "let", "package", "private", "protected", "public", "static",
        "yield", "await", "any", "boolean", "number", "string", "symbol", "type", "undefined", "never", "unknown",
        "object", "arguments", "eval",
    ]

    /// A method of the generated class.
    static func method(_ identifier: String) -> String {
        classMembers.contains(identifier) ? identifier + "_" : identifier
    }
}
