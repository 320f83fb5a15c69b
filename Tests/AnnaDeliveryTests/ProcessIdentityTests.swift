import Foundation
import Testing

/// Identity and consent across real processes on one folder, as across launches of
/// an app and its extensions: each process is an `AnnaDeliveryChild app` with its
/// identity in the folder and its events on the wire to the loopback collector.
@Suite(.serialized) struct ProcessIdentityTests {
    /// One message of a batch as it reached the collector.
    struct Message {
        let type: String
        let name: String?
        let anonymousID: String?
        let userID: String?
    }

    static func messages(_ collector: LoopbackCollector) async throws -> [Message] {
        try await collector.bodies().flatMap { body -> [Message] in
            let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
            return (object["batch"] as? [[String: Any]] ?? []).map { message in
                Message(
                    type: message["type"] as? String ?? "?", name: message["event"] as? String,
                    anonymousID: message["anonymousId"] as? String, userID: message["userId"] as? String)
            }
        }
    }

    /// Runs one launch to its end and returns its "identity …" line's fields.
    @discardableResult
    static func launch(_ folder: URL, _ collector: LoopbackCollector, _ steps: [String]) async throws -> [String] {
        let child = try ChildProcess(["app", folder.path, collector.endpoint.absoluteString] + steps)
        let exited = await child.wait(seconds: 60)
        #expect(exited, "\(child.lines)")
        #expect(!child.lines.contains { $0.hasPrefix("error ") }, "\(child.lines)")
        let line = try #require(child.lines.first { $0.hasPrefix("identity ") }, "\(child.lines)")
        return line.split(separator: " ").dropFirst().map(String.init)
    }

    @Test func consentRevokedInOneProcessIsAppliedByTheNextBeforeItsFirstEvent() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        try await Self.launch(folder.url, collector, ["report:beforeRevoke", "revoke:analytics", "report:afterRevoke"])
        let next = try await Self.launch(folder.url, collector, ["report:firstOfNextLaunch", "grant:marketing"])
        #expect(next[2] == "marketing,necessary", "the revocation was kept, the grant added")
        let names = try await Self.messages(collector).compactMap(\.name)
        #expect(names == ["beforeRevoke"])
    }

    @Test func anOptOutInOneProcessHoldsInTheNext() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        try await Self.launch(folder.url, collector, ["report:first", "flush", "optout"])
        try await Self.launch(folder.url, collector, ["report:whileOptedOut"])
        try await Self.launch(folder.url, collector, ["optin", "report:afterOptIn"])
        let names = try await Self.messages(collector).compactMap(\.name)
        #expect(names == ["first", "afterOptIn"])
    }

    @Test func resetChangesTheAnonymousIDOnTheWireAndTheNextLaunchKeepsIt() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let first = try await Self.launch(folder.url, collector, ["identify:user-1", "report:signedIn", "reset", "report:signedOut"])
        try await Self.launch(folder.url, collector, ["report:nextLaunch"])
        let tracks = try await Self.messages(collector).filter { $0.type == "track" }
        #expect(tracks.map(\.name) == ["signedIn", "signedOut", "nextLaunch"])
        #expect(tracks[0].userID == "user-1" && tracks[1].userID == nil)
        #expect(tracks[0].anonymousID != tracks[1].anonymousID)
        #expect(tracks[1].anonymousID == first[0] && tracks[2].anonymousID == first[0])
        let identify = try await Self.messages(collector).first { $0.type == "identify" }
        #expect(identify?.userID == "user-1" && identify?.anonymousID == tracks[0].anonymousID)
    }

    /// Processes started together on a new folder agree on one anonymous id, and one
    /// started after the app identified the user carries the user id.
    @Test func anAppAndItsExtensionsShareOneIdentity() async throws {
        let collector = try LoopbackCollector()
        defer { collector.stop() }
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let together = try (0..<3).map { index in
            try ChildProcess(["app", folder.url.path, collector.endpoint.absoluteString, "report:process\(index)"])
        }
        for child in together { #expect(await child.wait(seconds: 60), "\(child.lines)") }
        try await Self.launch(folder.url, collector, ["identify:user-9", "report:appIdentified"])
        try await Self.launch(folder.url, collector, ["report:fromExtension"])
        let messages = try await Self.messages(collector)
        #expect(Set(messages.compactMap(\.anonymousID)).count == 1, "\(messages.map(\.anonymousID))")
        #expect(messages.filter { $0.type == "track" }.count == 5)
        #expect(messages.first { $0.name == "fromExtension" }?.userID == "user-9")
    }
}
