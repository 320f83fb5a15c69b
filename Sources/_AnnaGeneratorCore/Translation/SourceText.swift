/// Generated Swift as UTF-8 bytes while it is written.
///
/// In Translation/, below Rendering/, because the render model spells some of its
/// parts with it (``MemberwiseParts``), and the templates write the file with it.
///
/// Appending a `String` to a `String` costs several hundred instructions whatever
/// its length, and a 1,000-event spec's file is written in some 300,000 pieces;
/// copying each piece's bytes into one buffer costs a few dozen. The buffer is its
/// own, grown by doubling, so an append is a capacity check and a copy; the text is
/// not copyable, so the buffer has one owner, which frees it.
///
/// A text made with ``init(chunkSize:drain:)`` never holds the whole file: when its
/// buffer is full it hands what it holds to `drain` (which compares it with the file
/// in place or writes it) and starts again at the front. The tools write a file of
/// megabytes so in a buffer of 64 KiB, instead of touching a fresh page of memory
/// for every 4 KB of it.
package struct SourceText: ~Copyable {
    /// The bytes; `count` of them are written.
    private var base: UnsafeMutablePointer<UInt8>
    /// How many bytes fit before the buffer grows.
    private var capacity: Int
    /// How many bytes are written and not yet drained.
    private(set) var count = 0
    /// Takes the bytes written so far when the buffer is full; `nil` for a text held whole.
    private let drain: ((UnsafeBufferPointer<UInt8>) -> Void)?

    /// An empty text with room for `capacity` bytes, which grows to hold all it is given.
    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        drain = nil
    }

    /// An empty text that hands its bytes to `drain` in order, whenever `chunkSize`
    /// of them are written, and at ``drainAll()``. Only what ``endWithOneNewline()``
    /// may still change is kept back: the line breaks at the end and the character
    /// before them.
    init(chunkSize: Int, drain: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        capacity = max(chunkSize, 16)
        base = .allocate(capacity: capacity)
        self.drain = drain
    }

    deinit {
        base.deallocate()
    }

    /// Appends bytes.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { makeRoom(for: bytes.count) }
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends one byte.
    mutating func append(_ byte: UInt8) {
        if count == capacity { makeRoom(for: 1) }
        (base + count).initialize(to: byte)
        count += 1
    }

    /// Appends a string's UTF-8 bytes. Inlined: the generator appends some 200,000
    /// pieces, and the call cost as much as the copy.
    @inline(__always)
    static func += (text: inout SourceText, string: String) {
        // Native and small strings, which is all of them on the platforms the generator
        // runs on, lend their bytes without a copy of the string.
        guard string.utf8.withContiguousStorageIfAvailable({ text.append($0) }) == nil else { return }
        var string = string
        string.withUTF8 { text.append($0) }
    }

    /// Appends another text's bytes.
    static func += (text: inout SourceText, other: borrowing SourceText) {
        text.append(UnsafeBufferPointer(start: other.base, count: other.count))
    }

    /// Appends each line after `prefix`, ending in a line break.
    mutating func appendLines(_ lines: [String], prefix: String) {
        for line in lines {
            self += prefix
            self += line
            append(UInt8(ascii: "\n"))
        }
    }

    /// Appends `text` as a quoted Swift string literal, as ``SwiftLiteral/string(_:)``
    /// writes it; printable ASCII, the usual case, is copied without building the
    /// literal first.
    mutating func appendLiteral(_ text: String) {
        let isPlain = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.allSatisfy(SwiftLiteral.isPlainASCII) else { return false }
            append(UInt8(ascii: "\""))
            append(bytes)
            append(UInt8(ascii: "\""))
            return true
        }
        if isPlain != true { self += SwiftLiteral.string(text) }
    }

    /// Ends the text in exactly one line break, as ``SwiftRenderer/render(_:)`` ends
    /// a `String`: blank lines at the end are removed, and a missing line break is
    /// added. Counted in characters, as `String` counts them: `\r\n` is one
    /// character, not a line break followed by another.
    mutating func endWithOneNewline() {
        let newline = UInt8(ascii: "\n")
        /// Whether the character ending at byte `end` (exclusive) is a lone `\n`.
        func isLoneNewline(endingAt end: Int) -> Bool {
            end >= 1 && base[end - 1] == newline && (end < 2 || base[end - 2] != UInt8(ascii: "\r"))
        }
        while isLoneNewline(endingAt: count), isLoneNewline(endingAt: count - 1) {
            count -= 1
        }
        if !isLoneNewline(endingAt: count) { append(newline) }
    }

    /// The text as a `String`, leaving the text empty with its capacity kept, to
    /// build the next one in: a string of several pieces costs one allocation so.
    mutating func takeString() -> String {
        defer { count = 0 }
        return string
    }

    /// Calls `body` with the bytes written so far (and not drained).
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The text as a `String`.
    var string: String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// Hands every byte written to `drain`. Call it once the text is complete.
    mutating func drainAll() {
        guard let drain, count > 0 else { return }
        drain(UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    /// Makes room for `extra` more bytes: drains what ``endWithOneNewline()`` can no
    /// longer change when the text drains, and grows the buffer when that is not enough.
    private mutating func makeRoom(for extra: Int) {
        if let drain {
            // Keep the last character that is not a line break and the line breaks
            // after it: endWithOneNewline() stops at that character.
            var drained = count
            while drained > 0, base[drained - 1] == UInt8(ascii: "\n") || base[drained - 1] == UInt8(ascii: "\r") { drained -= 1 }
            drained -= 1
            if drained > 0 {
                drain(UnsafeBufferPointer(start: base, count: drained))
                base.moveInitialize(from: base + drained, count: count - drained)
                count -= drained
            }
        }
        if count + extra > capacity { grow(toHold: count + extra) }
    }

    /// Moves the bytes to a buffer that holds at least `needed`, doubling the capacity.
    private mutating func grow(toHold needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
