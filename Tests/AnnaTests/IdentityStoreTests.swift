import Anna
import Foundation
import Testing

/// `FileIdentityStore` on real files: absent, corrupt, a later version, a permission
/// error, atomic replacement, interrupted writes, and concurrent field changes that all survive.
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

    @Test func aCorruptStateThrowsAnErrorNamingTheFileAndIsNeverOverwritten() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("identity.json")
        try Data("not json".utf8).write(to: file)
        let error = #expect(throws: IdentityStoreError.self) { try FileIdentityStore(directory: directory).load() }
        #expect(error?.path.hasSuffix("identity.json") == true)
        #expect(error?.description.contains("damaged") == true)
        // An update leaves it as it is.
        #expect(throws: IdentityStoreError.self) {
            try FileIdentityStore(directory: directory).update { identity in identity = StoredIdentity(anonymousID: "new") }
        }
        #expect(try Data(contentsOf: file) == Data("not json".utf8))
        // A save (the app chose again) moves it aside first.
        try FileIdentityStore(directory: directory).save(StoredIdentity(anonymousID: "new"))
        #expect(try FileIdentityStore(directory: directory).load()?.anonymousID == "new")
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("identity.json.unreadable-") }
        #expect(aside.count == 1)
        #expect(try aside.first.map { try Data(contentsOf: directory.appendingPathComponent($0)) } == Data("not json".utf8))
    }

    @Test func theStateNamesItsVersionAndALaterOneIsLeftAsItIs() throws {
        let store = FileIdentityStore(directory: directory)
        try store.save(StoredIdentity(anonymousID: "a"))
        let file = directory.appendingPathComponent("identity.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect((object?["version"] as? NSNumber)?.intValue == StoredIdentity.formatVersion)

        let later = Data(#"{"version":2,"anonymousID":"b","isOptedOut":true}"#.utf8)
        try later.write(to: file)
        let error = #expect(throws: IdentityStoreError.self) { try store.load() }
        #expect(error?.newerFormat?.found == 2 && error?.newerFormat?.supported == 1)
        #expect(error?.description.contains("version 2") == true && error?.description.contains("version 1") == true)
        #expect(throws: IdentityStoreError.self) { try store.update { $0?.userID = "u" } }
        #expect(throws: IdentityStoreError.self) { try store.save(StoredIdentity(anonymousID: "c")) }
        #expect(try Data(contentsOf: file) == later)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["identity.json", "identity.lock"])
    }

    @Test func aPermissionErrorIsReportedAndTheFileLeftAsItIs() throws {
        let store = FileIdentityStore(directory: directory, openForReading: { _ in
            errno = EACCES
            return -1
        })
        try FileIdentityStore(directory: directory).save(StoredIdentity(anonymousID: "a", isOptedOut: true))
        let before = try Data(contentsOf: directory.appendingPathComponent("identity.json"))
        let error = #expect(throws: IdentityStoreError.self) { try store.load() }
        #expect(error?.description.contains("Permission denied") == true, "\(String(describing: error))")
        #expect(throws: IdentityStoreError.self) { try store.update { $0?.userID = "u" } }
        #expect(try Data(contentsOf: directory.appendingPathComponent("identity.json")) == before)
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
        // Rewritten as version 1, with the key it does not know.
        try FileIdentityStore(directory: directory).update { $0?.userID = "v" }
        let text = try String(contentsOf: directory.appendingPathComponent("identity.json"), encoding: .utf8)
        #expect(text.contains(#""futureField":1"#) && text.contains(#""version":1"#) && text.contains(#""userID":"v""#), "\(text)")
    }

    @Test func temporaryFilesOfInterruptedWritesAreRemovedWhenTheStateIsRead() throws {
        try FileIdentityStore(directory: directory).save(StoredIdentity(anonymousID: "a"))
        for name in ["identity.json.12.tmp", "identity.json.4194304.tmp", "identity.json.x.tmp", "other.tmp"] {
            try Data("{".utf8).write(to: directory.appendingPathComponent(name))
        }
        #expect(try FileIdentityStore(directory: directory).load()?.anonymousID == "a")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["identity.json", "identity.json.x.tmp", "identity.lock", "other.tmp"])
    }
}
