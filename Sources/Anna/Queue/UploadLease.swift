#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `upload.lock` of a shared folder holds while a process under
/// ``DeliveryStorage/LockPolicy/aroundIO`` sends a request: its holder (the process
/// id, and a number drawn by each open shared folder, so that two providers on one
/// folder in one process also exclude each other) and when the lease expires, on the system-wide monotonic clock (`CLOCK_MONOTONIC`), so that
/// the processes of one device compare the same numbers. It lets such a process
/// send without holding the `flock` (which it holds only to read and write the lease),
/// and a process suspended mid-request blocks the others at most until expiry.
struct UploadLease: Equatable {
    /// Who holds a lease: a process, and which of its open shared folders.
    struct Holder: Equatable {
        var process: Int32
        var folder: UInt64
    }

    var holder: Holder
    /// Nanoseconds of `CLOCK_MONOTONIC`.
    var expiry: UInt64

    static let encodedSize = 20

    /// Whether the lease stops `other` from sending at `now`. A lease ending further
    /// away than `longest` was written before the clock restarted (a reboot): it blocks
    /// nobody.
    func blocks(_ other: Holder, now: UInt64, longest: Duration) -> Bool {
        guard other != holder, expiry > now else { return false }
        return expiry - now <= UInt64(clamping: longest.saturatingNanoseconds)
    }

    var encoded: [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: holder.process.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: holder.folder.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: expiry.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// `nil` for anything but a whole lease (an empty file: no lease).
    init?(decoding bytes: [UInt8]) {
        guard bytes.count == Self.encodedSize else { return nil }
        holder = bytes.withUnsafeBytes {
            Holder(
                process: Int32(littleEndian: $0.loadUnaligned(as: Int32.self)),
                folder: UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 4, as: UInt64.self)))
        }
        expiry = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 12, as: UInt64.self)) }
    }

    init(holder: Holder, expiry: UInt64) {
        self.holder = holder
        self.expiry = expiry
    }

    /// `CLOCK_MONOTONIC` now, in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// The lease in an open `upload.lock`, if any.
    static func read(_ descriptor: Int32) -> UploadLease? {
        var bytes = [UInt8](repeating: 0, count: encodedSize + 1)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count == encodedSize else { return nil }
        return UploadLease(decoding: Array(bytes.prefix(encodedSize)))
    }

    /// Replaces the file's contents with `lease`, or empties it (`nil`).
    static func write(_ lease: UploadLease?, to descriptor: Int32) {
        let bytes = lease?.encoded ?? []
        _ = ftruncate(descriptor, 0)
        if !bytes.isEmpty { _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } }
    }
}
