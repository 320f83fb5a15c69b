import CAnnaZlib

/// Inflates a gzip body with the system's zlib, stopping at a limit so that a small
/// body that inflates to gigabytes (a zip bomb) costs no more than the limit.
package enum GzipInflater {
    /// Why a body could not be inflated.
    package enum Failure: Error, Sendable, Hashable {
        /// Not gzip, or corrupt, with zlib's words.
        case corrupt(String)
        /// It inflates past the limit.
        case tooLarge
    }

    /// The inflated bytes of one gzip member (and any that follow it).
    /// - Parameters:
    ///   - body: The gzip bytes.
    ///   - limit: The most bytes inflated.
    package static func inflate(_ body: [UInt8], limit: Int) -> Result<[UInt8], Failure> {
        guard !body.isEmpty else { return .failure(.corrupt("an empty body is not gzip")) }
        var stream = z_stream()
        guard CAnnaZlib_inflateInitGzip(&stream) == Z_OK else { return .failure(.corrupt("zlib could not start")) }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = body
        return input.withUnsafeMutableBufferPointer { source -> Result<[UInt8], Failure> in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return CAnnaZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit { return .failure(.tooLarge) }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END:
                    // Concatenated members are one body, as `gzip -c a b` writes them.
                    if stream.avail_in == 0 { return .success(output) }
                    guard inflateReset(&stream) == Z_OK else { return .failure(.corrupt("zlib could not go on")) }
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(.corrupt("the gzip body ends early"))
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    return .failure(.corrupt(message))
                }
            }
        }
    }
}
