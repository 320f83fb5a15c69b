/// The date-times Segment's API carries (`2026-01-01T00:00:00.000Z`): RFC 3339, with
/// optional fractional seconds and a `Z` or `±hh:mm` offset. Checked by hand, as
/// formatters are slow and accept more than the spec allows.
enum ISO8601 {
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return false }
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
                value = value * 10 + Int(bytes[index] - 48)
            }
            return value
        }
        guard digits(0..<4) != nil, bytes[4] == UInt8(ascii: "-"), let month = digits(5..<7), bytes[7] == UInt8(ascii: "-"),
              let day = digits(8..<10), bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              let hour = digits(11..<13), bytes[13] == UInt8(ascii: ":"), let minute = digits(14..<16),
              bytes[16] == UInt8(ascii: ":"), let second = digits(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return false }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            guard index > start, index < bytes.count else { return false }
        }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") { return index + 1 == bytes.count }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), index + 6 == bytes.count,
              let offsetHours = digits(index + 1..<index + 3), bytes[index + 3] == UInt8(ascii: ":"),
              let offsetMinutes = digits(index + 4..<index + 6)
        else { return false }
        return offsetHours < 24 && offsetMinutes < 60
    }
}
