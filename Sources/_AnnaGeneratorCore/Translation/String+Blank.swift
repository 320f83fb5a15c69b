extension String {
    /// Whether the text is empty or only whitespace, as `allSatisfy(\.isWhitespace)`
    /// decides, but deciding by the first printable ASCII byte when there is one,
    /// without walking the text's characters.
    var isBlank: Bool {
        for byte in utf8 {
            switch byte {
            case 0x09...0x0D, 0x20: continue
            case 0x80...: return allSatisfy(\.isWhitespace)
            default: return false
            }
        }
        return true
    }
}
