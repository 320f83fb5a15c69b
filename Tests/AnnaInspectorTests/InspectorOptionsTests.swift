// anna-inspect parses its options only with the Inspector trait (`swift test --enable-all-traits`).
#if Inspector
import Foundation
import Testing

/// Invalid options exit 2 (bad input, as the docs' exit table and `--help` say, and CI
/// gates read), not swift-argument-parser's 64, with the parser's message: the real
/// built executable, as a CI step runs it.
@Suite struct InspectorOptionsTests {
    @Test(arguments: [
        (["--naming", "kebab-case"], "--naming must be spec or snake_case"),
        (["--port", "abc"], "The value 'abc' is invalid for '--port <port>'"),
        (["--port", "70000"], "--port must be between 0 and 65535"),
        (["--no-such-option"], "Unknown option '--no-such-option'"),
        (["--keep", "-1"], "--keep"),
        (["--max-body", "0"], "--keep, --max-body and --forward-queue must be positive"),
        (["--idle-timeout", "0"], "--idle-timeout must be a positive number of seconds"),
        (["--forward", "ftp://example.com"], "--forward must be an http or https URL"),
    ])
    func anInvalidOptionExits2WithTheParsersMessage(options: [String], message: String) throws {
        let exit = try InspectorProcess.run([Fixtures.store] + options)
        #expect(exit.status == 2, "\(options): \(exit.stderr)")
        #expect(exit.stderr.contains("Error: ") && exit.stderr.contains(message), "\(options): \(exit.stderr)")
        #expect(exit.stderr.contains("Usage: anna-inspect"), "the usage follows the message")
    }

    @Test func noSpecExits2AndHelpExits0() throws {
        let none = try InspectorProcess.run([])
        #expect(none.status == 2 && none.stderr.contains("give at least one tracking spec"))
        let help = try InspectorProcess.run(["--help"])
        #expect(help.status == 0)
        // `anna inspect` runs anna-inspect in its place: the same status.
        let delegated = try InspectorProcess.run(["inspect", Fixtures.store, "--port", "abc"], executable: InspectorProcess.productsFolder.appending(path: "anna"))
        #expect(delegated.status == 2 && delegated.stderr.contains("'abc' is invalid"))
    }
}
#endif
