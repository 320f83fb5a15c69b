/// Why a pattern cannot be used, and where: syntax Anna's matcher does not
/// support, a mistake, or a pattern too large to match in bounded time.
package struct RegexSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what to do, e.g. `backreferences (\1) are not supported; …`.
    package var message: String
    /// Where the problem starts in the pattern, in Unicode scalars from 0.
    package var offset: Int

    /// Creates an error.
    package init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message and the offset.
    package var description: String { "\(message) (at offset \(offset))" }
}
