@_spi(Generated) import Anna
import AnnaRules
import Foundation

/// Reads the `tasks:` section of a spec file as task descriptions, for reloading
/// tasks in debug builds without the generator (whose YAML parser is libyaml, which
/// apps do not have). It reads the YAML that `tasks:` sections are written in:
/// block sequences and mappings, flow sequences and mappings of scalars, plain,
/// single- and double-quoted scalars, comments. Anything else (anchors, tags,
/// multi-line scalars) is refused with its line and column: rebuild to apply it.
/// Scalars get the YAML 1.2 core schema the generator uses, so a spec reads the same
/// descriptions the generator writes (`TaskDescription.<name>`).
package enum SpecTasksReader {
    /// A problem at a place in the spec.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The spec's path as given.
        package var file: String
        /// 1-based line and column.
        package var line: Int
        package var column: Int
        /// What is wrong and what to do.
        package var message: String

        /// `path:line:column: error: message`, as the generator prints.
        package var description: String { "\(file):\(line):\(column): error: \(message)" }
    }

    /// What a spec's file says about its tasks.
    package struct Output: Sendable, Hashable {
        /// `namespace:`, if the spec has one: with the file name, it names the task set.
        package var namespace: String?
        /// The tasks, in file order.
        package var tasks: [TaskDescription]
        /// For each task, where its keys are written (`match`, `report`, `with`,
        /// `with.<parameter>`, and `-` for the task itself), for located errors.
        var places: [[String: Place]] = []
    }

    /// A 1-based line and column in the spec.
    struct Place: Sendable, Hashable {
        var line: Int
        var column: Int
    }

    private struct Line {
        var number: Int
        var indent: Int
        var text: Substring  // without indentation and comment
    }

    /// Reads a spec's text.
    /// - Parameters:
    ///   - text: The spec's contents.
    ///   - file: The path shown in errors and in the tasks' `source` (its last component).
    package static func read(_ text: String, file: String) throws(Failure) -> Output {
        let fileName = String(file.split(separator: "/").last ?? Substring(file))
        var lines: [Line] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = stripComment(raw.hasSuffix("\r") ? raw.dropLast() : raw)
            let indent = content.prefix { $0 == " " }.count
            let body = content.dropFirst(indent)
            guard !body.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            if body.hasPrefix("\t") { throw Failure(file: file, line: offset + 1, column: indent + 1, message: "tabs do not indent YAML; use spaces") }
            lines.append(Line(number: offset + 1, indent: indent, text: Substring(body.trimmingCharacters(in: .whitespaces))))
        }
        var namespace: String?
        var tasks: [TaskDescription] = []
        var places: [[String: Place]] = []
        var position = 0
        while position < lines.count {
            let line = lines[position]
            position += 1
            guard line.indent == 0 else { continue }
            if line.text.hasPrefix("namespace:") {
                namespace = try scalarText(line.text.dropFirst("namespace:".count), line: line, column: "namespace:".count + 1, file: file)
            } else if line.text == "tasks:" {
                let start = position
                // The section: deeper lines, or a sequence at the key's own column.
                while position < lines.count, lines[position].indent > 0 || lines[position].text.hasPrefix("- ") { position += 1 }
                (tasks, places) = try readTasks(Array(lines[start..<position]), file: file, fileName: fileName)
            }
        }
        return Output(namespace: namespace, tasks: tasks, places: places)
    }

    /// The items of `tasks:`: `- match: …` with `report:` and `with:` under it.
    private static func readTasks(
        _ lines: [Line], file: String, fileName: String
    ) throws(Failure) -> ([TaskDescription], [[String: Place]]) {
        guard let first = lines.first else { return ([], []) }
        let itemIndent = first.indent
        var tasks: [TaskDescription] = []
        var places: [[String: Place]] = []
        var position = 0
        while position < lines.count {
            let line = lines[position]
            guard line.indent == itemIndent, line.text.hasPrefix("- ") else {
                throw Failure(file: file, line: line.number, column: line.indent + 1, message: "expected a task, '- match: …', here")
            }
            // The item's mapping: its first key on the dash's line, the others below at that key's column.
            let keyIndent = itemIndent + 2 + (line.text.dropFirst(2).prefix { $0 == " " }.count)
            var fields: [(key: String, value: Substring, line: Line, column: Int, children: [Line])] = []
            var entry = Line(number: line.number, indent: keyIndent, text: Substring(line.text.dropFirst(2).trimmingCharacters(in: .whitespaces)))
            position += 1
            while true {
                guard let colon = keyColon(entry.text) else {
                    throw Failure(file: file, line: entry.number, column: entry.indent + 1, message: "expected 'key: value' in a task")
                }
                var children: [Line] = []
                // Lines below the key, deeper, or a sequence at the key's own column
                // (`match:` then `- a/b` under it, which YAML allows).
                let hasInlineValue = !entry.text[entry.text.index(after: colon)...].trimmingCharacters(in: .whitespaces).isEmpty
                while position < lines.count,
                    lines[position].indent > keyIndent
                        || (!hasInlineValue && lines[position].indent == keyIndent && lines[position].text.hasPrefix("- "))
                {
                    children.append(lines[position])
                    position += 1
                }
                let key = String(entry.text[..<colon])
                let value = entry.text[entry.text.index(after: colon)...]
                let valueColumn = entry.indent + key.count + 2 + value.prefix { $0 == " " }.count
                fields.append((key, value, entry, valueColumn, children))
                guard position < lines.count, lines[position].indent == keyIndent else { break }
                entry = lines[position]
                position += 1
            }
            let (task, taskPlaces) = try task(fields, at: line, keyIndent: keyIndent, file: file, fileName: fileName)
            tasks.append(task)
            places.append(taskPlaces)
        }
        return (tasks, places)
    }

    private static func task(
        _ fields: [(key: String, value: Substring, line: Line, column: Int, children: [Line])], at item: Line, keyIndent: Int,
        file: String, fileName: String
    ) throws(Failure) -> (TaskDescription, [String: Place]) {
        var match: [String] = []
        var report = ""
        var with: [String: TaskDescription.Value] = [:]
        var places = ["-": Place(line: item.number, column: keyIndent + 1)]
        for field in fields {
            let inline = field.value.trimmingCharacters(in: .whitespaces)
            places[field.key] = Place(line: field.line.number, column: inline.isEmpty ? field.line.indent + 1 : field.column)
            switch field.key {
            case "match":
                if inline.isEmpty {
                    for child in field.children {
                        guard child.text.hasPrefix("- ") else { throw Failure(file: file, line: child.number, column: child.indent + 1, message: "expected '- pattern' under 'match:'") }
                        match.append(try scalarText(child.text.dropFirst(2), line: child, column: child.indent + 3, file: file))
                    }
                } else if inline.hasPrefix("[") {
                    match = try flowItems(Substring(inline), line: field.line, column: field.column, file: file).map { item throws(Failure) in
                        try scalarText(item.text, line: field.line, column: item.column, file: file)
                    }
                } else {
                    match = [try scalarText(Substring(inline), line: field.line, column: field.column, file: file)]
                }
            case "report":
                report = try scalarText(Substring(inline), line: field.line, column: field.column, file: file)
            case "with":
                if inline.isEmpty {
                    for child in field.children {
                        guard let colon = keyColon(child.text) else { throw Failure(file: file, line: child.number, column: child.indent + 1, message: "expected 'parameter: value' under 'with:'") }
                        let key = String(child.text[..<colon])
                        places["with.\(key)"] = Place(line: child.number, column: child.indent + 1)
                        with[key] = try value(child.text[child.text.index(after: colon)...], line: child, column: child.indent + key.count + 3, file: file)
                    }
                } else if inline.hasPrefix("{") {
                    for item in try flowItems(Substring(inline), line: field.line, column: field.column, file: file) {
                        guard let colon = keyColon(item.text) else { throw Failure(file: file, line: field.line.number, column: item.column, message: "expected 'parameter: value' in '{…}'") }
                        let key = String(item.text[..<colon]).trimmingCharacters(in: .whitespaces)
                        places["with.\(key)"] = Place(line: field.line.number, column: item.column)
                        with[key] = try value(item.text[item.text.index(after: colon)...], line: field.line, column: item.column + key.count + 2, file: file)
                    }
                } else {
                    throw Failure(file: file, line: field.line.number, column: field.column, message: "'with' takes a mapping of parameters")
                }
            default:
                throw Failure(file: file, line: field.line.number, column: field.line.indent + 1, message: "unknown key '\(field.key)' in a task; expected one of: match, report, with")
            }
        }
        return (TaskDescription(match: match, report: report, with: with, source: "\(fileName):\(item.number):\(keyIndent + 1)"), places)
    }

    /// A `with` value: a scalar under the core schema.
    private static func value(_ text: Substring, line: Line, column: Int, file: String) throws(Failure) -> TaskDescription.Value {
        let trimmed = Substring(text.trimmingCharacters(in: .whitespaces))
        if let quote = trimmed.first, quote == "\"" || quote == "'" {
            return .string(try scalarText(trimmed, line: line, column: column, file: file))
        }
        try refuseUnsupported(trimmed, line: line, column: column, file: file)
        switch ScalarValue.resolvePlain(String(trimmed)) {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        }
    }

    /// A scalar's text: quoted ones unquoted, plain ones as they are.
    private static func scalarText(_ text: Substring, line: Line, column: Int, file: String) throws(Failure) -> String {
        let trimmed = Substring(text.trimmingCharacters(in: .whitespaces))
        guard let quote = trimmed.first, quote == "\"" || quote == "'" else {
            try refuseUnsupported(trimmed, line: line, column: column, file: file)
            return String(trimmed)
        }
        guard trimmed.count >= 2, trimmed.last == quote else {
            throw Failure(file: file, line: line.number, column: column, message: "the quoted scalar does not end on its line; hot reload reads one-line scalars, rebuild to apply this one")
        }
        let inner = trimmed.dropFirst().dropLast()
        if quote == "'" { return inner.replacingOccurrences(of: "''", with: "'") }
        var result = ""
        var escaping = false
        for character in inner {
            if escaping {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\"", "\\", "/": result.append(character)
                default:
                    throw Failure(file: file, line: line.number, column: column, message: "the escape '\\\(character)' is not read by hot reload; rebuild to apply it")
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    private static func refuseUnsupported(_ text: Substring, line: Line, column: Int, file: String) throws(Failure) {
        guard let first = text.first else { return }
        if "&*!|>@`".contains(first) {
            throw Failure(file: file, line: line.number, column: column, message: "hot reload does not read '\(first)' (anchors, aliases, tags, multi-line scalars); rebuild to apply this spec")
        }
        if first == "[" || first == "{" {
            throw Failure(file: file, line: line.number, column: column, message: "a nested collection here is not read by hot reload; rebuild to apply this spec")
        }
    }

    /// The items of `[a, b]` or `{k: v, …}`, with their columns; quotes respected.
    private static func flowItems(_ text: Substring, line: Line, column: Int, file: String) throws(Failure) -> [(text: Substring, column: Int)] {
        guard let close = text.last, close == (text.first == "[" ? "]" : "}") else {
            throw Failure(file: file, line: line.number, column: column, message: "the flow collection does not end on its line; hot reload reads one-line collections, rebuild to apply this one")
        }
        var items: [(Substring, Int)] = []
        var start = text.index(after: text.startIndex)
        var quote: Character?
        var index = start
        let end = text.index(before: text.endIndex)
        while index < end {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "[" || character == "{" {
                throw Failure(file: file, line: line.number, column: column + text.distance(from: text.startIndex, to: index), message: "a nested collection here is not read by hot reload; rebuild to apply this spec")
            } else if character == "," {
                items.append((text[start..<index], column + text.distance(from: text.startIndex, to: start)))
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        let last = text[start..<end]
        if !last.trimmingCharacters(in: .whitespaces).isEmpty || !items.isEmpty {
            items.append((last, column + text.distance(from: text.startIndex, to: start)))
        }
        return items.map { item in
            let leading = item.0.prefix { $0 == " " }.count
            return (Substring(item.0.trimmingCharacters(in: .whitespaces)), item.1 + leading)
        }
    }

    /// The colon ending a mapping key: the first `:` followed by a space or the end,
    /// outside quotes.
    private static func keyColon(_ text: Substring) -> Substring.Index? {
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == ":" {
                let next = text.index(after: index)
                if next == text.endIndex || text[next] == " " { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// The line without its comment: `#` at the start or after a space, outside quotes.
    private static func stripComment(_ line: Substring) -> Substring {
        var quote: Character?
        var previous: Character = " "
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#", previous == " " || previous == "\t" {
                return line[..<index]
            }
            previous = character
            index = line.index(after: index)
        }
        return line
    }
}
