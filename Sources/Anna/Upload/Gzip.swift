internal import CAnnaZlib

/// gzip (RFC 1952) through the system's zlib, for request bodies.
///
/// One call compresses one body whole: a request is built once and sent from
/// memory, so a stream kept between requests would save only zlib's set-up (about
/// 256 KB allocated and freed per request, a few requests a minute).
enum Gzip {
    /// zlib's default level: on Segment JSON it gives within a few percent of level 9
    /// at a third of its time.
    static let defaultLevel: Int32 = 6

    /// `bytes` compressed as one gzip member; `nil` if zlib fails (out of memory),
    /// and the caller sends the body as it is.
    static func compress(_ bytes: [UInt8], level: Int32 = defaultLevel) -> [UInt8]? {
        var stream = z_stream()
        guard CAnnaZlib_deflateInitGzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                // zlib takes a mutable pointer to its input but never writes through it.
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(bound - Int(stream.total_out))
        return output
    }

    /// A gzip body decompressed, or `nil` when it is not one; at most `limit` bytes.
    static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard CAnnaZlib_inflateInitGzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return nil }
                if status == Z_STREAM_END { return output }
                guard status == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }
}
