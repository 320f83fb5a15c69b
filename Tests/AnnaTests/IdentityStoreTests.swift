import Anna
import Foundation
import Testing

/// `FileIdentityStore` on real files: absent, corrupt, atomic replacement, and
/// concurrent field changes that all survive.
@Suite struct IdentityStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anna-store-\(UUID().uuidString)")

    @Test func aMissingStateIsNilAndASavedOneReadsBack() throws {
        let store = FileIdentityStore(directory: directory)
        #expect(try store.load() == nil)
        let identity = StoredIdentity(
            anonymousID: "a", userID: "u", traits: ["email": "x@example.com"], piiTraits: ["email"],
            grantedConsent: [.necessary], isOptedOut: true, sessionID: 7, lastActivity: Date(timeIntervalSince1970: 100),
            appVersion: "1", appBuild: "2", globals: ["theme": "dark"])
        try store.save(identity)
        #expect(try FileIdentityStore(directory: directory).load() == identity)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "the temporary file is renamed over the state")
    }

    @Test func aCorruptStateThrowsAnErrorNamingTheFile() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: directory.appendingPathComponent("identity.json"))
        let error = #expect(throws: IdentityStoreError.self) { try FileIdentityStore(directory: directory).load() }
        #expect(error?.path.hasSuffix("identity.json") == true)
        #expect(error?.description.contains("corrupt") == true)
        // An update replaces it.
        try FileIdentityStore(directory: directory).update { identity in
            #expect(identity == nil)
            identity = StoredIdentity(anonymousID: "new")
        }
        #expect(try FileIdentityStore(directory: directory).load()?.anonymousID == "new")
    }

    @Test func concurrentChangesOfDifferentFieldsAllSurvive() async throws {
        try FileIdentityStore(directory: directory).save(StoredIdentity(anonymousID: "shared"))
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    // Each writer has a store of its own, as each process would.
                    let store = FileIdentityStore(directory: directory)
                    for index in 0..<25 {
                        try? store.update { identity in
                            identity?.globals["writer\(writer)"] = .int(index)
                        }
                    }
                }
            }
        }
        let identity = try #require(try FileIdentityStore(directory: directory).load())
        #expect(identity.anonymousID == "shared")
        #expect(identity.globals == ["writer0": 24, "writer1": 24, "writer2": 24, "writer3": 24])
    }

    @Test func aStateFromAnotherVersionKeepsWhatItKnows() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(#"{"anonymousID":"old","userID":"u","futureField":1}"#.utf8)
            .write(to: directory.appendingPathComponent("identity.json"))
        let identity = try #require(try FileIdentityStore(directory: directory).load())
        #expect(identity.anonymousID == "old" && identity.userID == "u" && identity.traits.isEmpty && !identity.isOptedOut)
    }
}
