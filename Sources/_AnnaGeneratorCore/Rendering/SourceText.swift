/// Generated Swift as UTF-8 bytes while it is written.
///
/// Appending a `String` to a `String` costs several hundred instructions whatever
/// its length, and a 1,000-event spec's file is written in some 300,000 pieces;
/// copying each piece's bytes into one buffer costs a few dozen.
struct SourceText {
    /// The text so far.
    private(set) var bytes: [UInt8] = []

    /// An empty text with room for `capacity` bytes.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends a string's UTF-8 bytes.
    static func += (text: inout SourceText, string: String) {
        var string = string
        string.withUTF8 { text.bytes.append(contentsOf: $0) }
    }

    /// Appends another text's bytes.
    static func += (text: inout SourceText, other: SourceText) {
        text.bytes.append(contentsOf: other.bytes)
    }

    /// Appends `text` as a quoted Swift string literal, as ``SwiftLiteral/string(_:)``
    /// writes it; printable ASCII, the usual case, is copied without building the
    /// literal first.
    mutating func appendLiteral(_ text: String) {
        guard text.utf8.allSatisfy(SwiftLiteral.isPlainASCII) else {
            self += SwiftLiteral.string(text)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        self += text
        bytes.append(UInt8(ascii: "\""))
    }

    /// The text as a `String`.
    var string: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
