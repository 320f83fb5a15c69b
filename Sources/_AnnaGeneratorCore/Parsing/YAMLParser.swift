import CYAML

/// Parses YAML with libyaml's event API into ``YAMLNode``s that remember where they
/// were written.
///
/// It never crashes and always ends: libyaml's own problems come back as located
/// diagnostics, and so do what libyaml accepts but a spec cannot hold: duplicate
/// keys, non-scalar keys, unknown aliases, more than one document, nesting deeper
/// than ``maximumDepth`` and alias expansions larger than ``maximumNodes``.
package struct YAMLParser: Sendable {
    /// The deepest nesting of sequences and mappings accepted.
    package var maximumDepth = 64
    /// The most nodes a document may hold once aliases are expanded: each node
    /// written counts once, and an alias counts the nodes it repeats. A plan of
    /// 1,000 events holds about 40,000; a billion laughs is stopped long before its
    /// expansion costs memory.
    package var maximumNodes = 1_000_000

    /// Creates a parser with the default limits.
    package init() {}

    /// Parses one YAML document.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - file: The path shown in diagnostics.
    /// - Returns: The document's root node.
    /// - Throws: ``SpecError`` with the located problem.
    package func parse(_ bytes: [UInt8], file: String) throws(SpecError) -> YAMLNode {
        let result: Result<YAMLNode, SpecError> = bytes.withUnsafeBufferPointer { buffer in
            var builder = TreeBuilder(file: file, bytes: buffer, maximumDepth: maximumDepth, maximumNodes: maximumNodes)
            return builder.run()
        }
        return try result.get()
    }
}

/// Drives libyaml and assembles the tree with an explicit stack, so deep input
/// cannot exhaust the call stack.
private struct TreeBuilder {
    /// A sequence or mapping being filled. Frames live in ``stack`` and are changed
    /// there in place (`stack[top].pairs.append(…)`), so a large mapping is never
    /// copied and no access to a frame needs a run-time exclusivity check.
    private struct Frame {
        let isMapping: Bool
        let location: SourceLocation
        let anchor: String?
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        var merges: [YAMLNode] = []
        var pendingKey: (String, SourceLocation)?
        /// Where the mapping's quoted `"<<"` key is written, if it has one: unlike a
        /// plain `<<`, which merges, it is a key like any other, so a second is a
        /// duplicate.
        var quotedMergeKeyLocation: SourceLocation?
        /// The keys of ``pairs`` but `<<` and where they are written, once the mapping
        /// has more than ``linearSearchLimit`` of them; until then ``pairs`` is searched.
        var keyIndex: [String: SourceLocation] = [:]
        var size = 1

        /// Beyond this many keys, a dictionary finds duplicates faster than a scan.
        static let linearSearchLimit = 16
        /// Room reserved up front: most mappings and lists of a spec hold this many
        /// entries or fewer, so they are filled without growing, and no more, since
        /// the room stays in the tree.
        static let initialCapacity = 4

        /// Where `key` was first written in the mapping whose entries so far are
        /// `pairs`, with `keyIndex` and `quotedMergeKey` as the frame holds them, if it
        /// was. Every key but `<<` is remembered in `pairs` (a plain `<<` that merges
        /// is not a pair, and one that does not is not a key checked for duplicates).
        /// Static, and given the parts by the caller, so that asking about the frame on
        /// top of the stack does not copy the frame.
        static func firstLocation(
            of key: String, in pairs: [YAMLPair], index keyIndex: [String: SourceLocation], quotedMergeKey: SourceLocation?
        ) -> SourceLocation? {
            if key == "<<" { return quotedMergeKey }
            guard keyIndex.isEmpty else { return keyIndex[key] }
            for index in pairs.indices where pairs[index].key == key { return pairs[index].keyLocation }
            return nil
        }

        /// Records a key checked for duplicates, whose pair is appended once its value is read.
        mutating func remember(_ key: String, at location: SourceLocation) {
            if key == "<<" {
                quotedMergeKeyLocation = location
                return
            }
            guard !keyIndex.isEmpty || pairs.count >= Self.linearSearchLimit else { return }
            if keyIndex.isEmpty {
                keyIndex.reserveCapacity(pairs.count * 2)
                for pair in pairs where pair.key != "<<" { keyIndex[pair.key] = pair.keyLocation }
            }
            keyIndex[key] = location
        }

        /// The keys checked for duplicates, which merged entries do not override.
        var explicitKeys: Set<String> {
            var keys = Set(pairs.lazy.map(\.key).filter { $0 != "<<" })
            if quotedMergeKeyLocation != nil { keys.insert("<<") }
            return keys
        }

        init(isMapping: Bool, location: SourceLocation, anchor: String?) {
            self.isMapping = isMapping
            self.location = location
            self.anchor = anchor
            if isMapping {
                pairs.reserveCapacity(Self.initialCapacity)
            } else {
                items.reserveCapacity(Self.initialCapacity)
            }
        }
    }

    let file: String
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    let maximumNodes: Int
    private var stack: [Frame] = []
    private var anchors: [String: YAMLNode] = [:]
    private var root: YAMLNode?
    private var totalNodes = 0
    private var documents = 0

    init(file: String, bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, maximumNodes: Int) {
        self.file = file
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.maximumNodes = maximumNodes
    }

    mutating func run() -> Result<YAMLNode, SpecError> {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return .failure(fail("libyaml could not start (out of memory)", at: location(line: 0, column: 0)))
        }
        defer { yaml_parser_delete(&parser) }
        if let base = bytes.baseAddress {
            yaml_parser_set_input_string(&parser, base, bytes.count)
        } else {
            var empty: UInt8 = 0
            yaml_parser_set_input_string(&parser, &empty, 0)
        }

        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                return .failure(libyamlProblem(parser))
            }
            defer { yaml_event_delete(&event) }
            let start = location(event.start_mark)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                guard let root else {
                    return .failure(fail("the spec is empty; start it with 'anna: 1'", at: location(line: 0, column: 0)))
                }
                return .success(root)
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    return .failure(fail("a spec holds one YAML document; remove this '---' or move the document into a file of its own", at: start))
                }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = string(scalar.value, length: scalar.length)
                let tag = scalar.tag.map { String(cString: $0) }
                var style = YAMLNode.ScalarStyle.plain
                if scalar.style != YAML_PLAIN_SCALAR_STYLE { style = .string }
                if let tag {
                    guard tag == "tag:yaml.org,2002:str" else {
                        return .failure(fail("the tag '\(tag)' is not supported; remove it (only !!str is allowed)", at: start))
                    }
                    style = .string
                }
                let node = YAMLNode(.scalar(text, style), at: start)
                if let error = complete(node, anchor: scalar.anchor.map { String(cString: $0) }) { return .failure(error) }
            case YAML_ALIAS_EVENT:
                let name = String(cString: event.data.alias.anchor)
                guard var node = anchors[name] else {
                    return .failure(fail("unknown alias '*\(name)'; define '&\(name)' before using it", at: start))
                }
                node.location = start
                if let error = complete(node, anchor: nil, adding: node.size) { return .failure(error) }
            case YAML_SEQUENCE_START_EVENT:
                if let error = checkDepth(at: start) { return .failure(error) }
                let start = event.data.sequence_start
                if let tag = start.tag.map({ String(cString: $0) }), tag != "tag:yaml.org,2002:seq" {
                    return .failure(fail("the tag '\(tag)' is not supported; remove it", at: location(event.start_mark)))
                }
                stack.append(Frame(isMapping: false, location: location(event.start_mark), anchor: start.anchor.map { String(cString: $0) }))
            case YAML_MAPPING_START_EVENT:
                if let error = checkDepth(at: start) { return .failure(error) }
                let start = event.data.mapping_start
                if let tag = start.tag.map({ String(cString: $0) }), tag != "tag:yaml.org,2002:map" {
                    return .failure(fail("the tag '\(tag)' is not supported; remove it", at: location(event.start_mark)))
                }
                stack.append(Frame(isMapping: true, location: location(event.start_mark), anchor: start.anchor.map { String(cString: $0) }))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard var frame = stack.popLast() else { continue }
                let node: YAMLNode
                if frame.isMapping {
                    // Merge keys: explicit entries win, earlier merged mappings win over later ones.
                    var present = frame.merges.isEmpty ? [] : frame.explicitKeys
                    for merge in frame.merges {
                        guard case .mapping(let merged) = merge.content else { continue }
                        for pair in merged where !present.contains(pair.key) {
                            present.insert(pair.key)
                            frame.pairs.append(pair)
                            frame.size += pair.value.size
                        }
                    }
                    node = YAMLNode(.mapping(frame.pairs), at: frame.location, size: frame.size)
                } else {
                    node = YAMLNode(.sequence(frame.items), at: frame.location, size: frame.size)
                }
                if let error = complete(node, anchor: frame.anchor) { return .failure(error) }
            default:
                break
            }
        }
    }

    private mutating func checkDepth(at location: SourceLocation) -> SpecError? {
        stack.count >= maximumDepth
            ? fail("nesting is deeper than \(maximumDepth) levels; a tracking spec needs far fewer", at: location)
            : nil
    }

    /// Attaches a finished node to its parent, or makes it the root.
    /// - Parameter adding: The nodes this adds to the document: one for a node
    ///   written (a collection's items were counted as they came), the whole
    ///   repeated node for an alias.
    private mutating func complete(_ node: YAMLNode, anchor: String?, adding: Int = 1) -> SpecError? {
        totalNodes += adding
        if totalNodes > maximumNodes {
            return fail("the document expands to more than \(maximumNodes) nodes; aliases that repeat aliases multiply, so use fewer", at: node.location)
        }
        if let anchor { anchors[anchor] = node }
        let top = stack.count - 1
        guard top >= 0 else {
            root = node
            return nil
        }
        guard stack[top].isMapping else {
            stack[top].items.append(node)
            stack[top].size += node.size
            return nil
        }
        if let (key, keyLocation) = stack[top].pendingKey {
            if key == "<<", isMergeValue(node) {
                if case .sequence(let items) = node.content { stack[top].merges.append(contentsOf: items) } else { stack[top].merges.append(node) }
            } else {
                stack[top].pairs.append(YAMLPair(key: key, keyLocation: keyLocation, value: node))
            }
            stack[top].size += node.size
            stack[top].pendingKey = nil
            return nil
        }
        guard case .scalar(let key, _) = node.content else {
            return fail("a key must be a plain name, not \(node.kindDescription)", at: node.location)
        }
        if key != "<<" || !isMergeKeyCandidate(node) {
            if let first = Frame.firstLocation(
                of: key, in: stack[top].pairs, index: stack[top].keyIndex, quotedMergeKey: stack[top].quotedMergeKeyLocation) {
                return fail("duplicate key '\(key)' (first at line \(first.line), column \(first.column)); remove one of them", at: node.location)
            }
            stack[top].remember(key, at: node.location)
        }
        stack[top].pendingKey = (key, node.location)
        return nil
    }

    private func isMergeKeyCandidate(_ node: YAMLNode) -> Bool {
        if case .scalar(_, .plain) = node.content { return true }
        return false
    }

    private func isMergeValue(_ node: YAMLNode) -> Bool {
        switch node.content {
        case .mapping: return true
        case .sequence(let items): return !items.isEmpty && items.allSatisfy { if case .mapping = $0.content { true } else { false } }
        case .scalar: return false
        }
    }

    // MARK: libyaml glue

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
        guard let pointer else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation {
        location(line: Int(mark.line), column: Int(mark.column))
    }

    private func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line + 1, column: column + 1)
    }

    private func fail(_ message: String, at location: SourceLocation) -> SpecError {
        SpecError(diagnostics: [.error(message, at: location)])
    }

    private func libyamlProblem(_ parser: yaml_parser_t) -> SpecError {
        let problem = parser.problem.map { String(cString: $0) } ?? "the YAML is malformed"
        var message = "invalid YAML: \(problem)"
        let sameMark = parser.context_mark.line == parser.problem_mark.line && parser.context_mark.column == parser.problem_mark.column
        if let context = parser.context.map({ String(cString: $0) }), !sameMark {
            message += " \(context) at line \(parser.context_mark.line + 1), column \(parser.context_mark.column + 1)"
        }
        let where_: SourceLocation
        if parser.error == YAML_READER_ERROR {
            where_ = offsetLocation(parser.problem_offset)
            message += "; save the file as UTF-8"
        } else {
            where_ = location(parser.problem_mark)
            message += hint(for: problem)
        }
        return fail(message, at: where_)
    }

    private func hint(for problem: String) -> String {
        if problem.contains("cannot start any token") { return "; indent with spaces, not tabs, and quote values that start with '@', '`' or '%'" }
        if problem.contains("did not find expected key") { return "; check the indentation of this line against the key above" }
        if problem.contains("mapping values are not allowed") { return "; quote the value if it contains ': '" }
        return ""
    }

    /// Line and column of a byte offset, for reader errors, which libyaml reports by offset only.
    ///
    /// Counted as libyaml counts its other marks: in the encoding it read (UTF-16 after a
    /// byte order mark, UTF-8 otherwise), in code points, with the same line breaks.
    private func offsetLocation(_ offset: Int) -> SourceLocation {
        let prefix = UnsafeBufferPointer(rebasing: bytes[..<min(offset, bytes.count)])
        let scalars: String.UnicodeScalarView
        if prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0xFE, 0xFF]) {
            let (high, low) = prefix[0] == 0xFF ? (1, 0) : (0, 1)
            let units = stride(from: 2, to: prefix.count - 1, by: 2).map { (index: Int) -> UInt16 in
                UInt16(prefix[index + high]) << 8 | UInt16(prefix[index + low])
            }
            scalars = String(decoding: units, as: UTF16.self).unicodeScalars
        } else {
            scalars = String(decoding: prefix, as: UTF8.self).unicodeScalars
        }
        var line = 0
        var column = 0
        var previous: Unicode.Scalar?
        for scalar in scalars {
            defer { previous = scalar }
            switch scalar {
            case "\u{FEFF}" where previous == nil: continue  // libyaml skips a leading byte order mark
            case "\n" where previous == "\r": continue
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                line += 1
                column = 0
            default:
                column += 1
            }
        }
        return location(line: line, column: column)
    }
}
