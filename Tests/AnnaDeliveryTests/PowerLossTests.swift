import Foundation
import Testing

@_spi(DurableQueue) @testable import Anna

/// A disk with a page cache, in memory. Writes, creations, deletions and renames
/// change the volatile layer; `sync` makes one file's data durable, `syncDirectory`
/// makes the names durable. At a chosen operation the power goes: that operation and
/// every later one fail with EIO, and `restart` keeps what was durable, plus, as a
/// real disk may, a random part of what was not (each name change or not, a prefix
/// of each file's unsynced tail).
///
/// Every member is used under `lock`, which makes `@unchecked Sendable` sound.
final class SimulatedDisk: @unchecked Sendable {
    final class Inode {
        var data: [UInt8] = []
        var durable: [UInt8] = []
    }

    private let lock = NSLock()
    private var names: [String: Inode] = [:]
    private var durableNames: [String: Inode] = [:]
    private var operations = 0
    private var failAt: Int
    private var down = false

    init(failAt: Int) { self.failAt = failAt }

    var isDown: Bool { lock.withLock { down } }

    /// Loses power now, if it has not yet.
    func losePower() { lock.withLock { down = true } }

    /// Runs one operation, or fails it once the power is gone.
    func perform<T>(_ body: (inout [String: Inode], inout [String: Inode]) throws -> T) throws -> T {
        try lock.withLock {
            if operations == failAt { down = true }
            operations += 1
            guard !down else { throw DurableStorageError(operation: "power loss", path: "disk", code: EIO) }
            return try body(&names, &durableNames)
        }
    }

    /// Powers the disk back on with what survived.
    func restart(using random: inout some RandomNumberGenerator) {
        lock.withLock {
            var survived = durableNames
            for name in Set(names.keys).union(durableNames.keys) where names[name] !== durableNames[name] {
                if Bool.random(using: &random) { survived[name] = names[name] }
            }
            var seen: Set<ObjectIdentifier> = []
            for inode in survived.values where seen.insert(ObjectIdentifier(inode)).inserted {
                var kept = inode.durable
                if inode.data.count > kept.count, inode.data.starts(with: kept) {
                    kept += inode.data[kept.count..<Int.random(in: kept.count...inode.data.count, using: &random)]
                }
                inode.data = kept
                inode.durable = kept
            }
            names = survived
            durableNames = survived
            down = false
            failAt = .max
        }
    }
}

/// A ``SegmentStore`` on a ``SimulatedDisk``: what `FileSegmentStore` does, one
/// simulated operation per call.
final class SimulatedDiskStore: SegmentStore, @unchecked Sendable {
    let disk: SimulatedDisk

    init(disk: SimulatedDisk) { self.disk = disk }

    private static func name(_ id: UInt64) -> String { String(format: "%016llx.seg", id) }

    func acquireLock() throws {}
    func releaseLock() {}

    func segmentIDs() throws -> [UInt64] {
        try disk.perform { names, _ in
            names.keys.compactMap { $0.hasSuffix(".seg") ? UInt64($0.dropLast(4), radix: 16) : nil }.sorted()
        }
    }

    func contents(of id: UInt64) throws -> [UInt8] {
        try disk.perform { names, _ in
            guard let inode = names[Self.name(id)] else { throw DurableStorageError(operation: "opening", path: "", code: ENOENT) }
            return inode.data
        }
    }

    func size(of id: UInt64) -> Int? { try? disk.perform { names, _ in names[Self.name(id)]?.data.count } }

    func create(_ id: UInt64) throws {
        try disk.perform { names, _ in
            guard names[Self.name(id)] == nil else { throw DurableStorageError(operation: "creating", path: "", code: EEXIST) }
            names[Self.name(id)] = SimulatedDisk.Inode()
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, to id: UInt64, at offset: Int) throws {
        try disk.perform { names, _ in
            guard let inode = names[Self.name(id)] else { throw DurableStorageError(operation: "writing", path: "", code: ENOENT) }
            if inode.data.count < offset { inode.data += [UInt8](repeating: 0, count: offset - inode.data.count) }
            inode.data.replaceSubrange(offset..<min(inode.data.count, offset + bytes.count), with: bytes)
        }
    }

    func sync(_ id: UInt64) throws {
        try disk.perform { names, _ in names[Self.name(id)].map { $0.durable = $0.data } }
    }

    func syncDirectory() throws {
        try disk.perform { names, durableNames in durableNames = names }
    }

    func truncate(_ id: UInt64, to size: Int) throws {
        try disk.perform { names, _ in
            if let inode = names[Self.name(id)], inode.data.count > size { inode.data.removeLast(inode.data.count - size) }
        }
    }

    func read(_ id: UInt64, at offset: Int, count: Int) throws -> [UInt8] {
        try disk.perform { names, _ in
            guard let inode = names[Self.name(id)] else { throw DurableStorageError(operation: "opening", path: "", code: ENOENT) }
            guard offset < inode.data.count else { return [] }
            return Array(inode.data[offset..<min(inode.data.count, offset + count)])
        }
    }

    func remove(_ id: UInt64) throws {
        try disk.perform { names, _ in names[Self.name(id)] = nil }
    }

    func loadState(_ file: StateFile) -> [UInt8]? {
        try? disk.perform { names, _ in names[file.rawValue]?.data }
    }

    /// A temporary file written (and synced when the file is durable), then renamed
    /// over: the rename is durable only after `syncDirectory`. Unsynced, a power loss
    /// leaves the new name with no contents, as ext4 may.
    func storeState(_ bytes: [UInt8], as file: StateFile) throws {
        try disk.perform { names, _ in
            let inode = SimulatedDisk.Inode()
            inode.data = bytes
            inode.durable = file.isDurable ? bytes : []
            names[file.rawValue] = inode
        }
    }
}

/// A small deterministic generator, so that a failing trial can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct PowerLossTests {
    /// Thousands of runs that append, read, acknowledge and purge, each losing power
    /// at a random operation, then recovering with a new queue: no record reported as
    /// persisted is lost, and no record acknowledged or purged before the loss comes
    /// back. `ANNA_POWER_LOSS_TRIALS` sets the number of trials (2,000; 300 under
    /// ThreadSanitizer).
    @Test func noPersistedRecordIsLostAndNoDeletedOneComesBack() async throws {
        // ThreadSanitizer makes each trial about ten times slower: fewer trials there.
        let trials = Int(ProcessInfo.processInfo.environment["ANNA_POWER_LOSS_TRIALS"] ?? "")
            ?? (dlsym(nil, "__tsan_init") == nil ? 2000 : 300)
        var lostTotal = 0
        var resurrectedTotal = 0
        var crashedMidway = 0
        for trial in 0..<trials {
            var random = SplitMix64(state: UInt64(trial))
            let disk = SimulatedDisk(failAt: Int.random(in: 0..<70, using: &random))
            var persisted: Set<Int> = []
            var deleted: Set<Int> = []
            var maybeDeleted: Set<Int> = []
            var appended = 0
            do {
                let queue = try DurableQueue(
                    store: SimulatedDiskStore(disk: disk),
                    configuration: .init(segmentSize: 4096, writeThreshold: 512), errorHandler: nil)
                for _ in 0..<8 {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<6:
                        let count = Int.random(in: 1...120, using: &random)
                        let before = queue.metrics.persisted
                        for number in appended..<appended + count { queue.append(Array("record-\(number)".utf8)) }
                        await queue.waitUntilPersisted()
                        // Pieces are written in order: the first ones persisted.
                        let done = queue.metrics.persisted - before
                        persisted.formUnion(appended..<appended + done)
                        appended += count
                    case 6..<9:
                        let records = await queue.read(maxRecords: Int.random(in: 1...150, using: &random), maxBytes: .max)
                        await queue.acknowledge(records)
                        // Only an acknowledgement that completed before the loss must be
                        // durable; one the loss interrupted may or may not be.
                        let numbers = records.map { Int(String(decoding: $0.payload.dropFirst(7), as: UTF8.self)) ?? -1 }
                        if disk.isDown { maybeDeleted.formUnion(numbers) } else { deleted.formUnion(numbers) }
                    default:
                        await queue.purge()
                        if disk.isDown { maybeDeleted.formUnion(0..<appended) } else { deleted.formUnion(0..<appended) }
                    }
                }
                if disk.isDown { crashedMidway += 1 }
                disk.losePower()
            }
            disk.restart(using: &random)
            let recovered = try DurableQueue(
                store: SimulatedDiskStore(disk: disk), configuration: .init(segmentSize: 4096), errorHandler: nil)
            let numbers = await recovered.read(maxRecords: .max, maxBytes: .max).compactMap {
                Int(String(decoding: $0.payload.dropFirst(7), as: UTF8.self))
            }
            let found = Set(numbers)
            let lost = persisted.subtracting(deleted).subtracting(maybeDeleted).subtracting(found)
            let resurrected = found.intersection(deleted)
            lostTotal += lost.count
            resurrectedTotal += resurrected.count
            #expect(lost.isEmpty, "trial \(trial): lost \(lost.sorted().prefix(10))")
            #expect(resurrected.isEmpty, "trial \(trial): deleted yet back \(resurrected.sorted().prefix(10))")
            #expect(found.count == numbers.count, "trial \(trial): a record twice")
            #expect(numbers == numbers.sorted(), "trial \(trial): out of order")
            #expect(found.allSatisfy { $0 < appended }, "trial \(trial): garbage")
            if !lost.isEmpty || !resurrected.isEmpty { break }
        }
        print("power-loss test: \(trials) trials, \(crashedMidway) lost power while working, \(lostTotal) lost, \(resurrectedTotal) came back")
        #expect(crashedMidway > trials / 4, "most trials lose power while working")
    }
}
