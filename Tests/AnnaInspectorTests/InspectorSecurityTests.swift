// anna-inspect serves only with the Inspector trait (`swift test --enable-all-traits`).
#if Inspector
import Foundation
import Testing

/// Loopback is not a boundary: anna-inspect as a process, asked over raw HTTP with the
/// headers a DNS-rebinding page, another origin's page and a device would send.
@Suite(.serialized, .timeLimit(.minutes(10))) struct InspectorSecurityTests {
    static let call = #"{"type":"track","event":"appOpened","messageId":"m","anonymousId":"secret-user@example.com"}"#

    @Test func aForeignHostIsRefusedEverywhereAndCounted() async throws {
        let inspector = try InspectorProcess([Fixtures.store])
        let port = inspector.address.port ?? 0
        #expect(try await inspector.send("/v1/track", body: Data(Self.call.utf8)).status == 200)
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "LOCALHOST:\(port)"] {
            let answer = try inspector.raw("GET", "/api/calls/1", headers: ["Host": host])
            #expect(answer.status == 200 && answer.body.contains("secret-user"), "\(host): \(answer.status)")
        }
        // What a DNS-rebinding page sends: its own name, resolved to 127.0.0.1.
        for host in ["evil.example:\(port)", "127.0.0.1:\(port + 1)", "127.0.0.1", "localhost.evil.example:\(port)"] {
            for (method, target) in [("GET", "/api/calls/1"), ("GET", "/api/state"), ("GET", "/"), ("GET", "/events"), ("POST", "/v1/track")] {
                let answer = try inspector.raw(method, target, headers: ["Host": host, "Content-Type": "application/json"], body: method == "POST" ? Self.call : "")
                #expect(answer.status == 403, "\(host) \(method) \(target): \(answer.status)")
                #expect(!answer.body.contains("secret-user") && answer.body.contains("Host header"))
            }
        }
        let noHost = try inspector.raw("GET", "/api/state", headers: [:])
        #expect(noHost.status == 403)
        let totals = try #require(try await inspector.state()["totals"] as? [String: Any])
        #expect(totals["rejectedRequests"] as? Int == 21 && totals["calls"] as? Int == 1, "\(totals)")
        _ = try await inspector.stop(SIGTERM)
    }

    @Test func thePageAndTheReadAPIAnswerTheirOwnOriginOnly() async throws {
        let inspector = try InspectorProcess([Fixtures.store])
        let port = inspector.address.port ?? 0
        let host = "127.0.0.1:\(port)"
        #expect(try await inspector.send("/v1/track", body: Data(Self.call.utf8)).status == 200)
        for target in ["/", "/api/state", "/api/calls/1"] {
            let own = try inspector.raw("GET", target, headers: ["Host": host])
            #expect(own.status == 200 && own.headers["access-control-allow-origin"] == nil, "\(target): \(own.headers)")
            #expect(own.headers["x-frame-options"] == "DENY")
            let sameOrigin = try inspector.raw("GET", target, headers: ["Host": host, "Origin": "http://\(host)", "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors"])
            #expect(sameOrigin.status == 200)
            for origin in ["http://127.0.0.1:\(port + 1)", "http://evil.example", "null"] {
                let foreign = try inspector.raw("GET", target, headers: ["Host": host, "Origin": origin])
                #expect(foreign.status == 403 && !foreign.body.contains("secret-user") && foreign.headers["access-control-allow-origin"] == nil, "\(origin) \(target)")
            }
            // A browser's cross-site fetch, without an Origin (a no-cors request): refused.
            let crossSite = try inspector.raw("GET", target, headers: ["Host": host, "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"])
            #expect(crossSite.status == 403)
        }
        // Opening the page from a link elsewhere is a navigation, and the page holds nothing collected.
        let navigation = try inspector.raw("GET", "/", headers: ["Host": host, "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"])
        #expect(navigation.status == 200 && navigation.body.contains("<title>Anna inspector</title>"))
        // The collector stays open to other origins (analytics.js), and its answers hold nothing collected.
        let preflight = try inspector.raw("OPTIONS", "/v1/batch", headers: ["Host": host, "Origin": "https://shop.example", "Access-Control-Request-Method": "POST"])
        #expect(preflight.status == 204 && preflight.headers["access-control-allow-origin"] == "*")
        let crossOriginCall = try inspector.raw("POST", "/v1/track", headers: ["Host": host, "Origin": "https://shop.example", "Content-Type": "text/plain"], body: Self.call)
        #expect(crossOriginCall.status == 200 && crossOriginCall.body == #"{"success":true}"# && crossOriginCall.headers["access-control-allow-origin"] == "*")
        _ = try await inspector.stop(SIGTERM)
    }

    /// Every path the collector does not take is the documented JSON 404, counted.
    @Test func anyOtherPathIsAJSON404AndCounted() async throws {
        let report = FileManager.default.temporaryDirectory.appending(path: "anna-inspect-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let inspector = try InspectorProcess([Fixtures.store, "--report-json", report])
        let host = "127.0.0.1:\(inspector.address.port ?? 0)"
        for (method, target) in [("POST", "/v2/batch"), ("GET", "/v2/batch"), ("PUT", "/v1/nothing"), ("POST", "/api/other"), ("GET", "/admin"), ("OPTIONS", "/v2/batch")] {
            let answer = try inspector.raw(method, target, headers: ["Host": host, "Content-Type": "application/json"], body: method == "POST" ? Self.call : "")
            #expect(answer.status == 404 && answer.headers["content-type"] == "application/json", "\(method) \(target): \(answer.status)")
            #expect(answer.body.hasPrefix(#"{"success":false,"error":"no endpoint \#(target); use /v1/batch"#), "\(answer.body)")
        }
        // A collector endpoint asked with another method is 405, in JSON too.
        let get = try inspector.raw("GET", "/v1/batch", headers: ["Host": host])
        #expect(get.status == 405 && get.body.contains(#""error":"use POST for /v1/batch""#))
        let totals = try #require(try await inspector.state()["totals"] as? [String: Any])
        #expect(totals["rejectedRequests"] as? Int == 7 && totals["requests"] as? Int == 7, "\(totals)")
        let exit = try await inspector.stop(SIGTERM)
        #expect(exit.status == 1, "a refused request fails the gate")
    }

    /// Beyond loopback, the page and the API need the token printed at start; the
    /// collector endpoints do not, so devices can send.
    @Test func beyondLoopbackThePageAndTheAPINeedTheToken() async throws {
        let inspector = try InspectorProcess([Fixtures.store, "--host", "0.0.0.0"])
        let host = "127.0.0.1:\(inspector.address.port ?? 0)"
        let line = try #require(try await inspector.standardErrorLine(containing: "?token="))
        let token = String(line.split(separator: "?token=").last?.prefix { $0.isHexDigit } ?? "")
        #expect(token.count == 32, "\(line)")
        #expect(try inspector.raw("POST", "/v1/track", headers: ["Host": host, "Content-Type": "application/json"], body: Self.call).status == 200)
        // The token with its last digit changed (a token that ends in "0" once made this the token itself).
        let wrong = token.dropLast() + (token.last == "0" ? "1" : "0")
        for target in ["/", "/api/state", "/api/calls/1", "/events"] {
            let without = try inspector.raw("GET", target, headers: ["Host": host])
            #expect(without.status == 401 && !without.body.contains("secret-user") && without.body.contains("access token"), "\(target)")
            #expect(try inspector.raw("GET", target, headers: ["Host": host, "Cookie": "anna-inspect-\(inspector.address.port ?? 0)=\(wrong)"]).status == 401)
        }
        #expect(try inspector.raw("GET", "/?token=0123", headers: ["Host": host]).status == 401)
        let opened = try inspector.raw("GET", "/?token=\(token)", headers: ["Host": host])
        #expect(opened.status == 303 && opened.headers["location"] == "/")
        let cookie = try #require(opened.headers["set-cookie"])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let pair = String(cookie.split(separator: ";")[0])
        let withCookie = try inspector.raw("GET", "/api/calls/1", headers: ["Host": host, "Cookie": "other=1; " + pair])
        #expect(withCookie.status == 200 && withCookie.body.contains("secret-user"))
        #expect(try inspector.raw("GET", "/api/state", headers: ["Host": host, "Authorization": "Bearer \(token)"]).status == 200)
        // The token does not open the API to another origin.
        #expect(try inspector.raw("GET", "/api/state", headers: ["Host": host, "Cookie": pair, "Origin": "http://evil.example"]).status == 403)
        _ = try await inspector.stop(SIGTERM)
    }
}
#endif
