@_spi(DurableQueue) import Anna
import Foundation
import Testing

/// SIGKILLs during identity writes (`AnnaDeliveryChild identity-writes`: identify and
/// setConsent in a loop): the state stays readable after every kill, and the next
/// launch removes the temporary files the kills left.
@Suite(.serialized) struct IdentityKillTests {
    @Test func killsDuringIdentityWritesLeaveNoTemporaryFileAfterTheNextLaunch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anna-identity-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func temporaryFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".tmp") }
        }
        var leftByKills = 0
        for _ in 0..<20 {
            let child = try ChildProcess(["identity-writes", folder.path, "20"])
            let writing = await eventually(within: 30) { child.lines.contains("writing") }
            #expect(writing, "\(child.lines)")
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...40)))
            child.kill()
            #expect(!child.lines.contains { $0.hasPrefix("error ") }, "\(child.lines)")
            leftByKills += temporaryFiles().count
            // Atomic replacement: a kill never leaves the state unreadable.
            let stored = try #require(try FileIdentityStore(directory: folder).load())
            #expect(stored.userID?.hasPrefix("user") == true)
        }
        // `load()` above already removed each kill's files; the last kill's are left for the launch.
        let child = try ChildProcess(["identity-writes", folder.path, "20"])
        _ = await eventually(within: 30) { child.lines.contains("writing") }
        child.kill()
        let analytics = AnalyticsService(providers: [], configuration: .init(storageDirectory: folder))
        let identity = await analytics.identity
        await analytics.shutdown()
        #expect(identity.userID?.hasPrefix("user") == true)
        #expect(temporaryFiles().isEmpty, "\(temporaryFiles()) (the kills left \(leftByKills) in all)")
        print("identity kills: \(leftByKills) temporary file(s) left by 20 SIGKILLs, none after the next launch")
    }
}
