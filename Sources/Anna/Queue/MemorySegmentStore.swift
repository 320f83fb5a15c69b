import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Segments in memory, for ``DeliveryStorage/memory(limit:)``: the same queue,
/// without surviving the process. Used on the queue's writer queue only.
final class MemorySegmentStore: SegmentStore {
    private var segments: [UInt64: [UInt8]] = [:]
    private var states: [StateFile: [UInt8]] = [:]

    func acquireLock() throws {}
    func releaseLock() {}
    func segmentIDs() throws -> [UInt64] { segments.keys.sorted() }
    func contents(of id: UInt64) throws -> [UInt8] { segments[id] ?? [] }
    func size(of id: UInt64) -> Int? { segments[id]?.count }

    func create(_ id: UInt64) throws {
        guard segments[id] == nil else { throw DurableStorageError(operation: "creating", path: "memory", code: EEXIST) }
        segments[id] = []
    }

    func write(_ bytes: UnsafeRawBufferPointer, to id: UInt64, at offset: Int) throws {
        var segment = segments[id] ?? []
        if segment.count > offset { segment.removeLast(segment.count - offset) }
        segment.append(contentsOf: bytes)
        segments[id] = segment
    }

    func sync(_ id: UInt64) throws {}
    func syncDirectory() throws {}

    func truncate(_ id: UInt64, to size: Int) throws {
        if let count = segments[id]?.count, count > size { segments[id]?.removeLast(count - size) }
    }

    func read(_ id: UInt64, at offset: Int, count: Int) throws -> [UInt8] {
        guard let segment = segments[id], offset < segment.count else { return [] }
        return Array(segment[offset..<min(segment.count, offset + count)])
    }

    func remove(_ id: UInt64) throws { segments[id] = nil }
    func loadState(_ file: StateFile) -> [UInt8]? { states[file] }
    func storeState(_ bytes: [UInt8], as file: StateFile) throws { states[file] = bytes }
}
