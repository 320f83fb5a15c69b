extension RegexProgram {
    /// Whether the pattern matches anywhere in `text` (like `firstMatch`: unanchored
    /// unless the pattern uses `^` or `$`).
    ///
    /// Simulates all paths through the program at once, one input scalar at a time,
    /// so it takes at most (program size × (scalars + 1)) steps and never backtracks.
    /// - Parameter text: The string to search.
    /// - Returns: `true` if some substring matches.
    package func matches(_ text: String) -> Bool {
        let input = Array(text.unicodeScalars)
        let count = instructions.count
        // The last position (generation) at which each instruction was entered; an
        // instruction is entered at most once per position, which bounds the work.
        var entered = [Int](repeating: -1, count: count)
        var current: [Int] = []
        var next: [Int] = []
        var stack: [Int] = []
        current.reserveCapacity(count)
        next.reserveCapacity(count)

        /// Follows jumps, splits and assertions from `start` at `position`, adding
        /// the consuming instructions reached to `list`; `true` if `.match` is reached.
        func enter(_ start: Int, at position: Int, into list: inout [Int]) -> Bool {
            stack.append(start)
            while let pc = stack.popLast() {
                guard entered[pc] != position else { continue }
                entered[pc] = position
                switch instructions[pc] {
                case .literal, .set: list.append(pc)
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .assertStart:
                    if position == 0 { stack.append(pc + 1) }
                case .assertEnd:
                    if isEnd(position, of: input) { stack.append(pc + 1) }
                case .match:
                    stack.removeAll(keepingCapacity: true)
                    return true
                }
            }
            return false
        }

        for position in 0...input.count {
            // A new attempt starts at every position: the search is unanchored.
            if enter(0, at: position, into: &current) { return true }
            guard position < input.count else { break }
            let scalar = input[position]
            next.removeAll(keepingCapacity: true)
            for pc in current {
                let consumes: Bool
                switch instructions[pc] {
                case .literal(let literal): consumes = literal == scalar
                case .set(let index): consumes = sets[index].contains(scalar)
                default: consumes = false
                }
                if consumes, enter(pc + 1, at: position + 1, into: &next) { return true }
            }
            swap(&current, &next)
        }
        return false
    }

    /// ICU's `$` without multiline mode: the end, or before a final line terminator
    /// (or a final `\r\n`).
    private func isEnd(_ position: Int, of input: [Unicode.Scalar]) -> Bool {
        switch input.count - position {
        case 0: return true
        case 1: return RegexCharacterSet.isLineTerminator(input[position])
        case 2: return input[position] == "\r" && input[position + 1] == "\n"
        default: return false
        }
    }
}
