import Foundation
import Testing

/// Where `anna diff` places each change: removals at the old spec's line, spec-level
/// keys at their own line, and GitHub annotations always on a file of the repository.
@Suite struct DiffLocationTests {
    static let base = (try? String(contentsOf: DiffTests.folder.appending(path: "base.anna.yml"), encoding: .utf8)) ?? ""

    /// `anna diff old.anna.yml new.anna.yml` on two edits of the base spec.
    static func diff(old: String = base, new: String, format: String = "text") throws -> AnnaTool.Result {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try old.write(to: root.appending(path: "old.anna.yml"), atomically: true, encoding: .utf8)
        try new.write(to: root.appending(path: "new.anna.yml"), atomically: true, encoding: .utf8)
        return try AnnaTool.run(["diff", "old.anna.yml", "new.anna.yml", "--format", format], in: root)
    }

    static func edit(_ text: String, _ edits: (String, String)...) -> String {
        edits.reduce(text) { text, edit in
            precondition(text.contains(edit.0), "the base spec has no \(edit.0)")
            return text.replacingOccurrences(of: edit.0, with: edit.1)
        }
    }

    @Test func aRemovedParameterIsAtTheOldSpecsLine() throws {
        let result = try Self.diff(new: Self.edit(Self.base, ("      items: int\n", "")))
        #expect(result.stdout.hasPrefix("old.anna.yml:30:7: breaking: parameter 'items' removed from event 'checkoutStarted' [parameter-removed] (major)\n"))
    }

    @Test func namespaceAccessAndProvidersAreAtTheirKeys() throws {
        let namespace = try Self.diff(new: Self.edit(Self.base, ("namespace: Store", "namespace: Shop")))
        #expect(namespace.stdout.hasPrefix("new.anna.yml:3:1: breaking: namespace changed from 'Store' to 'Shop'; generated names change [namespace-changed] (major)\n"))

        let published = Self.edit(Self.base, ("namespace: Store\n", "namespace: Store\naccess: public\n"))
        let access = try Self.diff(old: published, new: Self.edit(published, ("access: public", "access: internal")))
        #expect(access.stdout.hasPrefix("new.anna.yml:4:1: breaking: access changed from public to internal; other modules no longer see the generated code [access-narrowed] (minor)\n"))

        let added = try Self.diff(new: Self.edit(Self.base, ("providers: [segment]", "providers: [segment, mixpanel]")))
        #expect(added.stdout.hasPrefix("new.anna.yml:4:22: compatible: provider profile 'mixpanel' added [provider-added]\n"))
        let removed = try Self.diff(new: Self.edit(Self.base, ("providers: [segment]\n", "")))
        #expect(removed.stdout.hasPrefix("old.anna.yml:4:13: compatible: provider profile 'segment' removed [provider-removed]\n"))
    }

    @Test func addingAMinimumLengthOfZeroRejectsNothing() throws {
        let zero = try Self.diff(new: Self.edit(Self.base, ("productID: { type: string, maxLength: 64 }", "productID: { type: string, minLength: 0, maxLength: 64 }")))
        #expect(zero.status == 0)
        #expect(zero.stdout == "anna diff: no changes\n")
        let one = try Self.diff(new: Self.edit(Self.base, ("productID: { type: string, maxLength: 64 }", "productID: { type: string, minLength: 1, maxLength: 64 }")))
        #expect(one.status == 1)
        #expect(one.stdout.hasPrefix("new.anna.yml:15:7: breaking: minLength of parameter 'productID' of event 'productViewed' tightened from 0 to 1;"))
    }

    /// GitHub places annotations on files of the pull request: with `--base`, a
    /// removal is annotated on the new spec at its parent's line and says where it was.
    @Test func baseAnnotationsNameTheRepositorysFile() throws {
        let root = try AnnaTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        func git(_ arguments: String...) throws {
            let result = try AnnaTool.run(["-c", "user.name=CI", "-c", "user.email=ci@example.com"] + arguments, in: root, executable: URL(fileURLWithPath: "/usr/bin/git"))
            #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        }
        try git("init", "-q")
        try FileManager.default.createDirectory(at: root.appending(path: "Specs"), withIntermediateDirectories: true)
        try Self.base.write(to: root.appending(path: "Specs/store.anna.yml"), atomically: true, encoding: .utf8)
        try Self.base.write(to: root.appending(path: "Specs/gone.anna.yml"), atomically: true, encoding: .utf8)
        try git("add", ".")
        try git("commit", "-q", "-m", "specs")
        try Self.edit(Self.base, ("      items: int\n", ""), ("traits:\n  email: { type: string, maxLength: 254 }\n", "traits:\n"))
            .write(to: root.appending(path: "Specs/store.anna.yml"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: root.appending(path: "Specs/gone.anna.yml"))

        let result = try AnnaTool.run(["diff", "--base", "HEAD", "--format", "github", "Specs"], in: root)
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains(
            "::error file=Specs/store.anna.yml,line=27,col=3,title=Breaking tracking-plan change (parameter-removed)::parameter 'items' removed from event 'checkoutStarted' (was at HEAD:Specs/store.anna.yml:30:7)"))
        #expect(lines.contains(
            "::error file=Specs/store.anna.yml,line=39,col=1,title=Breaking tracking-plan change (trait-removed)::trait 'email' removed (was at HEAD:Specs/store.anna.yml:41:3)"))
        // A removed spec has no file left to annotate: its repository path, not HEAD:….
        #expect(lines.contains { $0.hasPrefix("::error file=Specs/gone.anna.yml,line=") })
        #expect(!lines.contains { $0.contains("file=HEAD") })
    }
}
