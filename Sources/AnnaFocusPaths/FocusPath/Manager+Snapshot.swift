import Foundation

/// The manager's snapshot: Anna's markup of the focus-path tree, for debugging and tests.
extension Manager {
    /// Anna's markup of the whole tree: every node, the tasks that apply to it, the
    /// Spark events attached to its analyzer (trigger and ``SparkEvent/trace``) and
    /// its ten latest events.
    ///
    /// ```
    /// <__root__ id="0" class="ana-node" createdAt="1530341056867">
    ///   <master id="2" class="ana-node" createdAt="1530341056870">
    ///     <ana-appeared class="ana-event" time="1530341056875" />
    /// ```
    public func snapshot() -> String {
        Self.lock.withLock {
            var text = ""
            sparkHolders.removeAll { $0.analyzer == nil }
            var sparks: [ObjectIdentifier: [SparkEvent]] = [:]
            for holder in sparkHolders {
                guard let analyzer = holder.analyzer, let node = analyzer.currentNode, !node.isRemoved else { continue }
                sparks[ObjectIdentifier(node)] = analyzer.sparkEventsForSnapshot
            }
            write(root, sparks: sparks, depth: 0, into: &text)
            return text
        }
    }

    /// Writes ``snapshot()`` to the manager's standard output.
    public func logSnapshot() {
        output(snapshot())
    }

    fileprivate func write(_ node: Node, sparks: [ObjectIdentifier: [SparkEvent]], depth: Int, into text: inout String) {
        let indent = String(repeating: "  ", count: depth)
        let tag = node === root ? "__root__" : Markup.tagName(node.nodeName)
        var attributes = "id=\"\(node.serial)\" class=\"ana-node\" createdAt=\"\(Markup.milliseconds(node.createdAt))\""
        if let index = node.index { attributes += " index=\"\(index)\"" }
        if let section = node.section { attributes += " section=\"\(section)\"" }
        text += "\(indent)<\(tag) \(attributes)>\n"
        var events: [String] = []
        for task in index.all {
            for pattern in task.patterns where pattern.matches(names: node.names) && !events.contains(pattern.event) {
                events.append(pattern.event)
            }
        }
        if !events.isEmpty {
            text += "\(indent)  <match>\n\(indent)    <branches length=\"\(events.count)\">\n"
            for event in events { text += "\(indent)      <\(Markup.tagName(event)) />\n" }
            text += "\(indent)    </branches>\n\(indent)  </match>\n"
        }
        for spark in sparks[ObjectIdentifier(node)] ?? [] {
            var sparkAttributes = " trigger=\"\(spark.trigger.rawValue)\""
            if let trace = spark.trace { sparkAttributes += " trace=\"\(Markup.escape(trace))\"" }
            if spark.isSingleFire { sparkAttributes += " single-fire=\"true\"" }
            text += "\(indent)  <ana-spark\(sparkAttributes) class=\"ana-spark\" />\n"
        }
        for keyPath in node.valueKeyPaths {
            if let value = node.latestValue(keyPath) {
                text += "\(indent)  <ana-value key-path=\"\(Markup.escape(keyPath))\" value=\"\(Markup.escape(value.description))\" />\n"
            }
        }
        for event in node.recentEvents() {
            var eventAttributes = ""
            if let keyPath = event.keyPath { eventAttributes += " key-path=\"\(Markup.escape(keyPath))\"" }
            if event.name == .updated { eventAttributes += " value=\"\(Markup.escape(event.value?.description ?? "nil"))\"" }
            text += "\(indent)  <ana-\(Markup.tagName(event.name.rawValue))\(eventAttributes) class=\"ana-event\" time=\"\(Markup.milliseconds(event.time))\" />\n"
        }
        for child in node.orderedChildren { write(child, sparks: sparks, depth: depth + 1, into: &text) }
        text += "\(indent)</\(tag)>\n"
    }
}

/// Escaping and formatting for the markup.
enum Markup {
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// A name usable as a tag: letters, digits, `-`, `_`, `.`; anything else becomes `_`.
    static func tagName(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map {
            switch $0 {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": $0
            default: "_"
            }
        }))
    }

    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            default: result.append(character)
            }
        }
        return result
    }
}
