/// The 64-bit FNV-1a hash, fed as the bytes come, so what is hashed never has to be
/// gathered into one buffer first.
struct FNV1a {
    /// The hash of the bytes so far.
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Hashes one byte.
    mutating func combine(_ byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x0000_0100_0000_01b3
    }

    /// Hashes a string's UTF-8 bytes.
    mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes { combine(byte) }
        }
    }

    /// The hash as 16 lowercase hexadecimal digits.
    var hexadecimal: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
