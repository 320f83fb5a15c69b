/// A task's pattern: node names ending in the event the task waits for.
///
/// - `cell/did-select`: `did-select` on a node named `cell`, at any depth.
/// - `master/tableView/cell/did-select`: the node's path ends with these names.
/// - `/master/tableView/cell/did-select`: a leading `/` anchors at the root.
/// - `*` stands for exactly one node, `**` for any number, none included:
///   `/master/**/button/target-action`, `list/*/did-select`.
public struct FocusPattern: Sendable, Hashable, CustomStringConvertible {
    /// One node component.
    package enum Component: Sendable, Hashable {
        /// A node name.
        case name(String)
        /// `*`: exactly one node.
        case any
        /// `**`: any number of nodes, none included.
        case anyDepth
    }

    /// Why a text is not a pattern.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong and what to do, naming the pattern.
        public var message: String
        /// The message.
        public var description: String { message }
        /// Creates an error.
        package init(message: String) { self.message = message }
    }

    /// Whether the pattern starts with `/` and so matches from the root.
    package var isAnchored: Bool
    /// The node components, without the event.
    package var nodes: [Component]
    /// The event that triggers the task.
    package var event: String
    /// The pattern as written.
    public var description: String

    /// Parses a pattern.
    /// - Throws: ``SyntaxError`` naming the problem and its fix.
    package init(_ text: String) throws(SyntaxError) {
        var body = Substring(text)
        isAnchored = body.hasPrefix("/")
        if isAnchored { body = body.dropFirst() }
        var components: [Component] = []
        for part in body.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case "":
                throw SyntaxError(message: "match '\(text)' has an empty component; remove the extra '/'")
            case "*": components.append(.any)
            case "**": components.append(.anyDepth)
            default:
                guard part.unicodeScalars.allSatisfy(Self.isNameScalar) else {
                    throw SyntaxError(message: "match '\(text)' has the component '\(part)'; components are names of letters, digits, '_', '-' and '.', or * and **")
                }
                components.append(.name(String(part)))
            }
        }
        guard case .name(let event)? = components.last else {
            throw SyntaxError(message: "match '\(text)' must end with the event it waits for, e.g. cell/did-select")
        }
        self.event = event
        self.nodes = Array(components.dropLast())
        self.description = text
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".": true
        default: false
        }
    }

    /// Whether a node whose path from the root has these names matches the node
    /// components. The event is compared by the caller.
    /// - Parameter names: The node's names from the root's child down to the node.
    package func matches(names: [String]) -> Bool {
        // Glob matching over components: `*` is one, `**` any number. A relative
        // pattern behaves as if it started with `**`. Greedy with one backtrack point,
        // O(pattern × path) at worst.
        var p = 0, n = 0
        var star: Int? = isAnchored ? nil : -1
        var starN = 0
        while n < names.count {
            if p < nodes.count {
                switch nodes[p] {
                case .anyDepth:
                    star = p; starN = n; p += 1
                    continue
                case .any:
                    p += 1; n += 1
                    continue
                case .name(let name) where name == names[n]:
                    p += 1; n += 1
                    continue
                case .name:
                    break
                }
            }
            guard let starP = star else { return false }
            p = starP + 1
            starN += 1
            n = starN
        }
        while p < nodes.count, case .anyDepth = nodes[p] { p += 1 }
        return p == nodes.count
    }
}
