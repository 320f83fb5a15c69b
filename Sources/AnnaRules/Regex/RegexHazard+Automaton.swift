extension RegexHazard {
    /// The most positions (scalars and sets) a pattern may have to be checked.
    static let maximumPositions = 300
    /// The most pairs of edges the product automaton may have to be checked.
    static let maximumProductEdges = 4_000_000

    /// Glushkov's position automaton with multiplicities: state 0 is the start,
    /// state `i > 0` is "just matched position i". Built and searched by one call.
    struct PositionAutomaton {
        struct Edge {
            var target: Int
            /// Where the repetition that loops back here is written, if any.
            var loop: Range<Int>?
        }

        struct Summary {
            var nullable: Bool
            var first: [Int]
            var last: [Int]
        }

        /// The set each position matches; index 0 is the start state's placeholder.
        var sets: [RegexCharacterSet] = [RegexCharacterSet()]
        var edges: [[Edge]] = [[]]

        mutating func addEdge(from source: Int, to target: Int, loop: Range<Int>?) {
            edges[source].append(Edge(target: target, loop: loop))
        }

        private mutating func position(_ set: RegexCharacterSet) -> Summary {
            sets.append(set)
            edges.append([])
            return Summary(nullable: false, first: [sets.count - 1], last: [sets.count - 1])
        }

        /// Adds `node`'s positions and inner edges; depth is bounded by the parser.
        mutating func build(_ node: RegexNode) -> Summary {
            switch node.kind {
            case .empty, .start, .end:
                return Summary(nullable: true, first: [], last: [])
            case .literal(let scalar):
                var set = RegexCharacterSet()
                set.ranges = [scalar.value...scalar.value]
                return position(set)
            case .set(let set):
                return position(set)
            case .concatenation(let items):
                var result = Summary(nullable: true, first: [], last: [])
                for item in items {
                    let next = build(item)
                    for source in result.last {
                        for target in next.first { addEdge(from: source, to: target, loop: nil) }
                    }
                    if result.nullable { result.first += next.first }
                    result.last = next.nullable ? result.last + next.last : next.last
                    result.nullable = result.nullable && next.nullable
                }
                return result
            case .alternation(let branches):
                var result = Summary(nullable: false, first: [], last: [])
                for branch in branches {
                    let next = build(branch)
                    result.nullable = result.nullable || next.nullable
                    result.first += next.first
                    result.last += next.last
                }
                return result
            case .repetition(let body, let min, let max):
                if max == 0 { return Summary(nullable: true, first: [], last: []) }
                var result = build(body)
                if max == nil || (max ?? 0) > 1 {
                    for source in result.last {
                        for target in result.first { addEdge(from: source, to: target, loop: node.range) }
                    }
                }
                if min == 0 { result.nullable = true }
                return result
            }
        }

        /// A cycle through a diagonal state (q, q) of the product automaton that also
        /// visits an off-diagonal state or takes two different edges at once.
        func exponentialAmbiguity() -> RegexHazard? {
            let count = sets.count
            guard count - 1 <= RegexHazard.maximumPositions else { return RegexHazard(kind: .tooComplex, range: 0..<0) }
            let edgeCount = edges.reduce(0) { $0 + $1.count }
            guard edgeCount * edgeCount <= RegexHazard.maximumProductEdges else {
                return RegexHazard(kind: .tooComplex, range: 0..<0)
            }
            var overlaps = [Bool](repeating: false, count: count * count)
            for first in 1..<max(count, 1) {
                for second in first..<count where sets[first].intersects(sets[second]) {
                    overlaps[first * count + second] = true
                    overlaps[second * count + first] = true
                }
            }
            let graph = ProductGraph(edges: edges, overlaps: overlaps, states: count)
            return graph.findAmbiguousCycle()
        }
    }

    /// The automaton's product with itself, searched with Tarjan's algorithm
    /// (iterative, so large patterns cannot exhaust the stack).
    struct ProductGraph {
        /// A product edge: its target, whether its two automaton edges differ, and
        /// the repetitions those edges loop back for.
        typealias Successor = (target: Int, divergent: Bool, loops: (Range<Int>?, Range<Int>?))

        let edges: [[PositionAutomaton.Edge]]
        let overlaps: [Bool]
        let states: Int

        /// Successors of product state `node` (p * states + q).
        func successors(of node: Int) -> [Successor] {
            let (p, q) = (node / states, node % states)
            var result: [Successor] = []
            for (i, first) in edges[p].enumerated() {
                for (j, second) in edges[q].enumerated() where overlaps[first.target * states + second.target] {
                    let divergent = p != q || i != j
                    result.append((first.target * states + second.target, divergent, (first.loop, second.loop)))
                }
            }
            return result
        }

        func findAmbiguousCycle() -> RegexHazard? {
            let total = states * states
            var index = [Int](repeating: -1, count: total)
            var lowLink = [Int](repeating: 0, count: total)
            var onStack = [Bool](repeating: false, count: total)
            var component = [Int](repeating: -1, count: total)
            var tarjanStack: [Int] = []
            var nextIndex = 0
            var components = 0

            struct Frame {
                var node: Int
                var successors: [Successor]
                var next = 0
            }
            // Only states reachable from the start pair matter.
            var frames = [Frame(node: 0, successors: successors(of: 0))]
            index[0] = 0
            lowLink[0] = 0
            nextIndex = 1
            tarjanStack.append(0)
            onStack[0] = true
            while !frames.isEmpty {
                let top = frames.count - 1
                if frames[top].next < frames[top].successors.count {
                    let target = frames[top].successors[frames[top].next].target
                    frames[top].next += 1
                    if index[target] == -1 {
                        index[target] = nextIndex
                        lowLink[target] = nextIndex
                        nextIndex += 1
                        tarjanStack.append(target)
                        onStack[target] = true
                        frames.append(Frame(node: target, successors: successors(of: target)))
                    } else if onStack[target] {
                        lowLink[frames[top].node] = min(lowLink[frames[top].node], index[target])
                    }
                    continue
                }
                let node = frames[top].node
                frames.removeLast()
                if let parent = frames.last?.node { lowLink[parent] = min(lowLink[parent], lowLink[node]) }
                if lowLink[node] == index[node] {
                    while let member = tarjanStack.popLast() {
                        onStack[member] = false
                        component[member] = components
                        if member == node { break }
                    }
                    components += 1
                }
            }

            // Per component: a diagonal state, and an off-diagonal state or a divergent edge.
            var hasDiagonal = [Bool](repeating: false, count: components)
            var isAmbiguous = [Bool](repeating: false, count: components)
            var loops = [Set<Range<Int>>](repeating: [], count: components)
            for node in 0..<total where component[node] >= 0 {
                if node / states == node % states { hasDiagonal[component[node]] = true }
            }
            for node in 0..<total where component[node] >= 0 && hasDiagonal[component[node]] {
                let own = component[node]
                for successor in successors(of: node) where component[successor.target] == own {
                    if successor.divergent { isAmbiguous[own] = true }
                    if let loop = successor.loops.0 { loops[own].insert(loop) }
                    if let loop = successor.loops.1 { loops[own].insert(loop) }
                }
            }
            // Report the component whose repetition starts first in the pattern.
            var found: RegexHazard?
            for own in 0..<components where hasDiagonal[own] && isAmbiguous[own] {
                // The outermost repetition: the first to start, the longest of those.
                guard let range = loops[own].min(by: { ($0.lowerBound, -$0.count) < ($1.lowerBound, -$1.count) }) else { continue }
                let kind: Kind = loops[own].count > 1 ? .nestedQuantifiers : .overlappingAlternatives
                if found == nil || range.lowerBound < (found?.offset ?? 0) { found = RegexHazard(kind: kind, range: range) }
            }
            return found
        }
    }
}
