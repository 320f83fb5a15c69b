// anna-inspect serves only with the Inspector trait (`swift test --enable-all-traits`).
#if Inspector
import Foundation
import Testing

/// What a web page in the same browser can do, in headless Chromium: a page from
/// another origin (a second loopback server, on its own port) and a DNS-rebinding
/// page (another name resolved to 127.0.0.1) cannot read what the inspector collected.
@Suite(.serialized, .timeLimit(.minutes(10)), .enabled(if: Browser.path != nil, "chromium is not installed (apt-get install chromium); the inspector's browser security tests are skipped"))
struct InspectorBrowserSecurityTests {
    static let call = #"{"type":"track","event":"appOpened","messageId":"m","anonymousId":"secret-user@example.com"}"#

    /// A page served by `python3 -m http.server` on another loopback port.
    final class OtherOrigin: @unchecked Sendable {  // fields are set once in init
        let process = Process()
        let folder = FileManager.default.temporaryDirectory.appending(path: "anna-inspect-origin-\(UUID().uuidString)")
        let port: Int

        init(page: String) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try page.write(to: folder.appending(path: "page.html"), atomically: true, encoding: .utf8)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            while !text.contains("\n") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
            guard let range = text.range(of: " port "), let port = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
                kill(process.processIdentifier, SIGKILL)
                throw InspectorProcess.StartError(description: "http.server did not start: '\(text)'")
            }
            self.port = port
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// The text the page's script left in `<pre id="out">`.
    static func output(_ dom: String) -> String {
        guard let start = dom.range(of: #"<pre id="out">"#), let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex) else { return dom }
        return String(dom[start.upperBound..<end.lowerBound])
    }

    @Test func aPageFromAnotherOriginCannotReadACall() async throws {
        let inspector = try InspectorProcess([Fixtures.store])
        #expect(try await inspector.send("/v1/track", body: Data(Self.call.utf8)).status == 200)
        let target = inspector.address.absoluteString
        // Synchronous requests, so the result is in the document before it loads and is dumped.
        let page = """
            <!doctype html><html><body><pre id="out"></pre><script>
            const out = [];
            for (const path of ["/api/calls/1", "/api/state"]) {
              try { const x = new XMLHttpRequest(); x.open("GET", "\(target)" + path, false); x.send(); out.push(path + " read " + x.status + " " + x.responseText); }
              catch (e) { out.push(path + " blocked " + e.name); }
            }
            try { const x = new XMLHttpRequest(); x.open("POST", "\(target)/v1/track", false); x.setRequestHeader("Content-Type", "text/plain"); x.send(JSON.stringify({type: "track", event: "appOpened", messageId: "w", anonymousId: "web"})); out.push("collector " + x.status + " " + x.responseText); }
            catch (e) { out.push("collector blocked " + e.name); }
            document.getElementById("out").textContent = out.join("\\n");
            </script></body></html>
            """
        let origin = try OtherOrigin(page: page)
        let (browser, file) = try Browser.start(["--dump-dom", "http://127.0.0.1:\(origin.port)/page.html"])
        let text = Self.output(try await Browser.finish(browser, file))
        #expect(text.contains("/api/calls/1 blocked NetworkError") && text.contains("/api/state blocked NetworkError"), "\(text)")
        #expect(!text.contains("secret-user"))
        // analytics.js on a shop's page still sends, and reads only {"success":true}.
        #expect(text.contains(#"collector 200 {"success":true}"#), "\(text)")
        let totals = try #require(try await inspector.state()["totals"] as? [String: Any])
        #expect(totals["calls"] as? Int == 2 && (totals["rejectedRequests"] as? Int ?? 0) >= 2, "\(totals)")
        _ = try await inspector.stop(SIGTERM)
    }

    @Test func aRebindingNameIsRefused() async throws {
        let inspector = try InspectorProcess([Fixtures.store])
        #expect(try await inspector.send("/v1/track", body: Data(Self.call.utf8)).status == 200)
        let port = inspector.address.port ?? 0
        // The rebinding page's name, once its DNS answers 127.0.0.1.
        let rules = "MAP rebind.test 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
        let (browser, file) = try Browser.start(["--dump-dom", "http://rebind.test:\(port)/api/calls/1"], resolverRules: rules)
        let dom = try await Browser.finish(browser, file)
        #expect(!dom.contains("secret-user") && dom.contains("is not an address this inspector listens on"), "\(dom)")
        // The same browser, at the inspector's own address, reads it.
        let (own, ownFile) = try Browser.start(["--dump-dom", "http://127.0.0.1:\(port)/api/calls/1"])
        #expect(try await Browser.finish(own, ownFile).contains("secret-user"))
        _ = try await inspector.stop(SIGTERM)
    }
}
#endif
