/// A regular expression compiled for ``RegexProgram/matches(_:)``, a Pike VM that
/// runs in time proportional to the program's size times the input's length,
/// whatever the pattern, so no pattern and no input can make it backtrack.
///
/// Immutable once built, so it can be shared; each match uses its own buffers.
package struct RegexProgram: Sendable {
    /// The most instructions a program may have. Counted repetitions are copied
    /// out (`a{3}` is `aaa`), so this bounds the work per input scalar.
    package static let maximumSize = 4_000

    /// The most steps (instructions entered) one match may take: program size ×
    /// (input length + 1). About 10 ns a step, so one value costs at most about
    /// 2.5 ms of the pipeline's thread, whatever the pattern.
    package static let maximumSteps = 250_000

    /// The longest string, in Unicode scalars, matched against any pattern.
    package static let maximumInput = 4_096

    /// The longest string, in Unicode scalars, this program matches within
    /// ``maximumSteps``: ``maximumInput`` for programs up to 61 instructions, fewer
    /// for larger ones (61 for the largest). A longer string is not matched.
    package var maximumInputLength: Int {
        Swift.min(Self.maximumInput, Swift.max(0, Self.maximumSteps / Swift.max(1, instructions.count) - 1))
    }

    enum Instruction: Sendable {
        /// Consume this scalar.
        case literal(Unicode.Scalar)
        /// Consume a scalar of the set at this index in `sets`.
        case set(Int)
        /// Continue at both.
        case split(Int, Int)
        /// Continue there.
        case jump(Int)
        /// Continue only at the start of the input.
        case assertStart
        /// Continue only at the end of the input, or before a line terminator ending it.
        case assertEnd
        /// The pattern matched.
        case match
    }

    let instructions: [Instruction]
    let sets: [RegexCharacterSet]

    /// Parses and compiles a pattern.
    /// - Parameter pattern: The regular expression (syntax: ``RegexParser``).
    /// - Throws: ``RegexSyntaxError`` if it does not parse or is larger than ``maximumSize``.
    package init(_ pattern: String) throws(RegexSyntaxError) {
        try self.init(RegexParser.parse(pattern))
    }

    /// Compiles a parsed pattern.
    /// - Parameter node: The syntax tree.
    /// - Throws: ``RegexSyntaxError`` if the program would be larger than ``maximumSize``.
    package init(_ node: RegexNode) throws(RegexSyntaxError) {
        if Self.size(of: node) > Self.maximumSize {
            throw RegexSyntaxError("the pattern is too large to check quickly (counted repetitions are copied out); use smaller counts, or maxLength", at: node.offset)
        }
        var compiler = Compiler()
        compiler.emit(node)
        compiler.instructions.append(.match)
        instructions = compiler.instructions
        sets = compiler.sets
    }

    /// How many instructions `node` compiles to, saturating above ``maximumSize``.
    private static func size(of node: RegexNode) -> Int {
        let cap = maximumSize + 1
        switch node.kind {
        case .empty: return 0
        case .literal, .set, .start, .end: return 1
        case .concatenation(let items):
            return items.reduce(0) { Swift.min($0 + size(of: $1), cap) }
        case .alternation(let branches):
            return branches.reduce(0) { Swift.min($0 + size(of: $1) + 2, cap) }
        case .repetition(let body, let min, let max):
            let body = size(of: body)
            let optional = max.map { $0 - min } ?? 1
            let total = body.multipliedReportingOverflow(by: min + optional)
            // One split per optional copy; a split and a jump for an unbounded loop.
            return total.overflow ? cap : Swift.min(total.partialValue + (max == nil ? 2 : optional), cap)
        }
    }

    /// Emits instructions for a tree, depth-first; the parser bounds the depth.
    private struct Compiler {
        var instructions: [Instruction] = []
        var sets: [RegexCharacterSet] = []

        mutating func emit(_ node: RegexNode) {
            switch node.kind {
            case .empty:
                break
            case .literal(let scalar):
                instructions.append(.literal(scalar))
            case .set(let set):
                if let index = sets.firstIndex(of: set) {
                    instructions.append(.set(index))
                } else {
                    sets.append(set)
                    instructions.append(.set(sets.count - 1))
                }
            case .start:
                instructions.append(.assertStart)
            case .end:
                instructions.append(.assertEnd)
            case .concatenation(let items):
                for item in items { emit(item) }
            case .alternation(let branches):
                // split L1, next; L1: branch; jump end; next: split L2, … ; last branch
                var jumps: [Int] = []
                for (position, branch) in branches.enumerated() {
                    if position < branches.count - 1 {
                        let split = instructions.count
                        instructions.append(.split(split + 1, 0))
                        emit(branch)
                        jumps.append(instructions.count)
                        instructions.append(.jump(0))
                        instructions[split] = .split(split + 1, instructions.count)
                    } else {
                        emit(branch)
                    }
                }
                for jump in jumps { instructions[jump] = .jump(instructions.count) }
            case .repetition(let body, let min, let max):
                for _ in 0..<min { emit(body) }
                if let max {
                    // Optional copies nest: (x(x(x)?)?)?, each skipping to the end.
                    var splits: [Int] = []
                    for _ in min..<max {
                        splits.append(instructions.count)
                        instructions.append(.split(0, 0))
                        emit(body)
                    }
                    for split in splits { instructions[split] = .split(split + 1, instructions.count) }
                } else {
                    // L: split body, end; body; jump L
                    let split = instructions.count
                    instructions.append(.split(0, 0))
                    emit(body)
                    instructions.append(.jump(split))
                    instructions[split] = .split(split + 1, instructions.count)
                }
            }
        }
    }
}
