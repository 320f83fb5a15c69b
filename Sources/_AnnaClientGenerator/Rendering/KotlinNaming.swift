import _AnnaGeneratorCore

/// The names Kotlin reserves, and how the generated file avoids them.
///
/// Keywords (`class`, `object`, `default`…) are written in backticks, which Kotlin
/// allows for any name. Members of the generated class and of `Any` take a trailing
/// `_`, as do enum entries named like an enum's own members and types named like
/// the Kotlin or Java types the file uses. The generated code's own locals and
/// helpers have an `_` in their names, which no identifier from a spec has, so a
/// property can never shadow them.
enum KotlinNaming {
    static let keywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is",
        "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof",
        "val", "var", "when", "while", "by", "catch", "constructor", "delegate", "dynamic", "field", "file",
        "finally", "get", "import", "init", "param", "property", "receiver", "set", "setparam", "value", "where",
        "actual", "abstract", "annotation", "companion", "const", "crossinline", "data", "enum", "expect",
        "external", "final", "infix", "inline", "inner", "internal", "lateinit", "noinline", "open", "operator",
        "out", "override", "private", "protected", "public", "reified", "sealed", "suspend", "tailrec", "vararg",
        "default", "it",
    ]

    /// Members of the generated class, and of `Any`.
    static let classMembers: Set<String> = [
        "identify", "group", "screens", "globals", "equals", "hashCode", "toString", "getClass",
    ]

    /// Members every enum class has.
    static let enumMembers: Set<String> = ["name", "ordinal", "wire", "values", "valueOf", "entries", "Companion", "compareTo"]

    /// Types the generated file refers to by their short names, or declares in its class.
    static let reservedTypes: Set<String> = [
        "String", "Long", "Int", "Double", "Boolean", "Any", "Unit", "List", "Map", "LinkedHashMap", "Regex",
        "Deprecated", "Suppress", "Nothing", "Char", "Array", "Pair", "Exception", "AnnaClient", "AnnaViolation",
        "AnnaOptions", "AnnaScreens", "AnnaGlobals", "AnnaContext",
    ]

    /// A name as a declaration or a reference writes it.
    static func escaped(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// An event function of the generated class.
    static func method(_ identifier: String) -> String {
        escaped(classMembers.contains(identifier) ? identifier + "_" : identifier)
    }

    /// An enum entry.
    static func entry(_ identifier: String) -> String {
        escaped(enumMembers.contains(identifier) ? identifier + "_" : identifier)
    }

    /// A parameter of `identify` or `group`, clear of their first parameter.
    static func trait(_ identifier: String) -> String {
        escaped(identifier == "userId" || identifier == "groupId" ? identifier + "_" : identifier)
    }
}
