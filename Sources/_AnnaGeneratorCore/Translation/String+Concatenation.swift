extension String {
    /// The pieces joined, written once into a string of the exact length.
    ///
    /// The translator builds some 200,000 small strings for a 1,000-event spec;
    /// interpolation appends each piece in turn, at several hundred instructions a
    /// piece, where this copies their bytes.
    /// - Parameter pieces: The strings to join, in order.
    /// - Returns: Their concatenation.
    static func concatenating(_ pieces: String...) -> String {
        var count = 0
        for piece in pieces { count += piece.utf8.count }
        guard count > 0 else { return "" }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            for var piece in pieces {
                piece.withUTF8 { bytes in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[offset..<offset + bytes.count]).initialize(from: bytes)
                    offset += bytes.count
                }
            }
            return offset
        }
    }
}
