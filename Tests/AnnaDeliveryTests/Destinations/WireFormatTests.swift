import Foundation
import Testing

@testable import Anna
@testable import AnnaDestinations

/// Each vendor's records and bodies against the fields of its published examples, and
/// its documented error bodies classified as the upload state machine needs them.
@Suite struct WireFormatTests {
    let timestamp = Date(timeIntervalSince1970: 1_764_201_600.123)
    let messageID = UUID(uuidString: "0193F2A1-7B3C-7D4E-8F00-1234567890AB")!

    func envelope(
        _ kind: AnalyticsEnvelope.Kind, name: String = "Order Completed", parameters: [String: AnalyticsValue] = ["revenue": 12.5],
        userID: String? = "user-42"
    ) -> AnalyticsEnvelope {
        AnalyticsEnvelope(
            event: AnalyticsEvent(name: name, parameters: parameters), messageID: messageID, timestamp: timestamp,
            sessionID: 1_764_201_000_000, anonymousID: "8F1B2C3D-device", userID: userID,
            context: AnalyticsContext(
                app: .init(name: "Shop", version: "1.2", build: "7", namespace: "com.example.shop"),
                device: .init(model: "iPhone16,1", manufacturer: "Apple"), os: .init(name: "iOS", version: "18.1"),
                locale: "en_US", timezone: "Europe/Paris"),
            kind: kind, groupID: kind == .group ? "acme" : nil, previousID: kind == .alias ? "old-id" : nil)
    }

    func record(_ wire: some CollectorWire, _ envelope: AnalyticsEnvelope) throws -> [String: Any] {
        var encoder = wire.makeEncoder()
        var bytes: [UInt8] = []
        encoder.encode(envelope, into: &bytes)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    func json(_ bytes: [UInt8]) throws -> Any { try JSONSerialization.jsonObject(with: Data(bytes)) }

    // MARK: Amplitude

    let amplitude = AmplitudeWire(endpoint: URL(string: "https://api2.amplitude.com/2/httpapi")!, apiKey: "API_KEY", groupType: "org")

    @Test func amplitudeEventsCarryTheHTTPV2Fields() throws {
        let event = try record(amplitude, envelope(.track))
        #expect(event["event_type"] as? String == "Order Completed")
        #expect(event["user_id"] as? String == "user-42")
        #expect(event["device_id"] as? String == "8F1B2C3D-device")
        #expect(event["time"] as? Int == 1_764_201_600_123)
        #expect(event["insert_id"] as? String == "0193f2a1-7b3c-7d4e-8f00-1234567890ab")
        #expect(event["session_id"] as? Int == 1_764_201_000_000)
        #expect((event["event_properties"] as? [String: Any])?["revenue"] as? Double == 12.5)
        #expect(event["app_version"] as? String == "1.2")
        #expect(event["platform"] as? String == "iOS" && event["os_name"] as? String == "iOS")
        #expect(event["os_version"] as? String == "18.1")
        #expect(event["device_model"] as? String == "iPhone16,1" && event["device_manufacturer"] as? String == "Apple")
        #expect(event["language"] as? String == "en_US" && event["ip"] as? String == "$remote")
        let documented: Set<String> = [
            "event_type", "user_id", "device_id", "time", "insert_id", "session_id", "event_properties", "user_properties",
            "groups", "group_properties", "app_version", "platform", "os_name", "os_version", "device_model",
            "device_manufacturer", "language", "library", "ip",
        ]
        #expect(Set(event.keys).isSubset(of: documented), "\(Set(event.keys).subtracting(documented))")
    }

    @Test func amplitudeIdentifyAndGroupIdentifySetProperties() throws {
        let identify = try record(amplitude, envelope(.identify, name: "", parameters: ["plan": "pro"]))
        #expect(identify["event_type"] as? String == "$identify")
        #expect(((identify["user_properties"] as? [String: Any])?["$set"] as? [String: Any])?["plan"] as? String == "pro")
        let group = try record(amplitude, envelope(.group, name: "", parameters: ["seats": 10]))
        #expect(group["event_type"] as? String == "$groupidentify")
        #expect((group["groups"] as? [String: Any])?["org"] as? String == "acme")
        #expect(((group["group_properties"] as? [String: Any])?["$set"] as? [String: Any])?["seats"] as? Int == 10)
        let anonymous = try record(amplitude, envelope(.track, userID: nil))
        #expect(anonymous["user_id"] == nil && anonymous["device_id"] as? String == "8F1B2C3D-device")
    }

    @Test func amplitudeBodyIsTheDocumentedObject() throws {
        let body = try #require(try json(amplitude.body([Array(#"{"event_type":"a"}"#.utf8)], sentAt: timestamp)) as? [String: Any])
        #expect(body["api_key"] as? String == "API_KEY")
        #expect((body["events"] as? [[String: Any]])?.count == 1)
        #expect((body["options"] as? [String: Any])?["min_id_length"] as? Int == 1)
    }

    @Test func amplitudeAnswersAreClassifiedAsDocumented() {
        // The 400 example of the HTTP V2 reference.
        let invalid = Data(#"""
            {"code":400,"error":"Request missing required field","missing_field":"api_key",
             "events_with_invalid_fields":{"time":[3,5]},"events_with_missing_fields":{"event_type":[2]}}
            """#.utf8)
        guard case .recordsRejected(400, let reasons, false) = amplitude.classify(.init(status: 400, body: invalid), records: 8)
        else { Issue.record("not per-record"); return }
        #expect(reasons.keys.sorted() == [2, 3, 5])
        #expect(reasons[3]?.contains("invalid field 'time'") == true && reasons[2]?.contains("missing field 'event_type'") == true)
        // A 400 naming no event (a missing api_key) splits.
        let missingKey = Data(#"{"code":400,"error":"Invalid API key","missing_field":"api_key"}"#.utf8)
        guard case .rejected = amplitude.classify(.init(status: 400, body: missingKey), records: 8) else {
            Issue.record("not split"); return
        }
        // The 429 example: throttled users and devices wait Amplitude's 30 seconds.
        let throttled = Data(#"""
            {"code":429,"error":"Too many requests for some devices and users","eps_threshold":30,
             "throttled_devices":{"C8F9E604-F01A-4BD9-95C6-8E5357DF265D":31},"throttled_users":{"datamonster@gmail.com":32},
             "throttled_events":[3,4,7]}
            """#.utf8)
        guard case .failed(429, _, let retryAfter) = amplitude.classify(.init(status: 429, body: throttled), records: 8)
        else { Issue.record("not a failure"); return }
        #expect(retryAfter == 30)
        guard case .tooLarge = amplitude.classify(.init(status: 413, body: Data()), records: 8) else { Issue.record("413"); return }
        guard case .failed(503, _, _) = amplitude.classify(.init(status: 503, body: Data()), records: 8) else {
            Issue.record("503"); return
        }
    }

    // MARK: Mixpanel

    let mixpanel = MixpanelWire(endpoint: URL(string: "https://api.mixpanel.com/track?strict=1")!, token: "TOKEN")

    @Test func mixpanelEventsCarryTheTrackFields() throws {
        let event = try record(mixpanel, envelope(.track, parameters: ["revenue": 12.5, "time": "ignored"]))
        #expect(event["event"] as? String == "Order Completed")
        let properties = try #require(event["properties"] as? [String: Any])
        #expect(properties["token"] as? String == "TOKEN")
        #expect(properties["time"] as? Int == 1_764_201_600_123, "a parameter named time never replaces the event's")
        #expect(properties["distinct_id"] as? String == "user-42")
        #expect(properties["$user_id"] as? String == "user-42" && properties["$device_id"] as? String == "8F1B2C3D-device")
        #expect(properties["$insert_id"] as? String == "0193f2a1-7b3c-7d4e-8f00-1234567890ab")
        #expect((properties["$insert_id"] as? String)?.count == 36)
        #expect(properties["revenue"] as? Double == 12.5)
        #expect(properties["$os"] as? String == "iOS" && properties["$app_version_string"] as? String == "1.2")
        let anonymous = try #require(try record(mixpanel, envelope(.track, userID: nil))["properties"] as? [String: Any])
        #expect(anonymous["distinct_id"] as? String == "$device:8F1B2C3D-device" && anonymous["$user_id"] == nil)
        let identify = try record(mixpanel, envelope(.identify, name: "", parameters: ["plan": "pro"]))
        #expect(identify["event"] as? String == "$identify")
        #expect((identify["properties"] as? [String: Any])?["plan"] == nil, "traits are profile properties, not sent")
    }

    @Test func mixpanelBodyIsAnArrayAndFailedRecordsAreNamed() throws {
        let body = try #require(try json(mixpanel.body([Array(#"{"event":"a"}"#.utf8), Array(#"{"event":"b"}"#.utf8)], sentAt: timestamp)) as? [Any])
        #expect(body.count == 2)
        // The strict=1 example of the Ingestion API reference.
        let failed = Data(#"""
            {"code":400,"error":"some data points in the request failed validation",
             "failed_records":[{"index":0,"$insert_id":"13c0b661-f48b-51cd-ba54-97c5999169c0","field":"properties.time",
             "message":"'properties.time' is invalid: must be specified as seconds since epoch"}],
             "num_records_imported":1,"status":"Bad Request"}
            """#.utf8)
        guard case .recordsRejected(400, let reasons, true) = mixpanel.classify(.init(status: 400, body: failed), records: 2)
        else { Issue.record("not per-record"); return }
        #expect(reasons.keys.sorted() == [0] && reasons[0]?.hasPrefix("properties.time") == true)
        guard case .accepted = mixpanel.classify(.init(status: 200, body: Data(#"{"code":200,"num_records_imported":2,"status":"OK"}"#.utf8)), records: 2)
        else { Issue.record("200"); return }
        guard case .failed(429, _, 2) = mixpanel.classify(.init(status: 429, retryAfter: "2", body: Data()), records: 2) else {
            Issue.record("429"); return
        }
    }

    // MARK: PostHog

    let posthog = PostHogWire(endpoint: URL(string: "https://us.i.posthog.com/batch/")!, projectAPIKey: "phc_KEY", groupType: "company")

    @Test func posthogEventsCarryTheCaptureFields() throws {
        let event = try record(posthog, envelope(.track))
        #expect(event["event"] as? String == "Order Completed")
        #expect(event["distinct_id"] as? String == "user-42")
        #expect(event["uuid"] as? String == "0193f2a1-7b3c-7d4e-8f00-1234567890ab")
        #expect(event["timestamp"] as? String == "2025-11-27T00:00:00.123Z")
        let properties = try #require(event["properties"] as? [String: Any])
        #expect(properties["revenue"] as? Double == 12.5 && properties["$lib"] as? String == "anna-swift")
        #expect(properties["$os"] as? String == "iOS" && properties["$app_version"] as? String == "1.2")
    }

    @Test func posthogCallsAreItsSpecialEvents() throws {
        let screen = try record(posthog, envelope(.screen, name: "Product Detail", parameters: ["sku": "A1"]))
        #expect(screen["event"] as? String == "$screen")
        #expect((screen["properties"] as? [String: Any])?["$screen_name"] as? String == "Product Detail")
        let identify = try record(posthog, envelope(.identify, name: "", parameters: ["email": "a@b.c"]))
        #expect(identify["event"] as? String == "$identify" && identify["distinct_id"] as? String == "user-42")
        let identifyProperties = try #require(identify["properties"] as? [String: Any])
        #expect((identifyProperties["$set"] as? [String: Any])?["email"] as? String == "a@b.c")
        #expect(identifyProperties["$anon_distinct_id"] as? String == "8F1B2C3D-device")
        let group = try #require(try record(posthog, envelope(.group, name: "", parameters: ["seats": 10]))["properties"] as? [String: Any])
        #expect(group["$group_type"] as? String == "company" && group["$group_key"] as? String == "acme")
        #expect((group["$group_set"] as? [String: Any])?["seats"] as? Int == 10)
        let alias = try record(posthog, envelope(.alias, name: "", parameters: [:]))
        #expect(alias["event"] as? String == "$create_alias")
        #expect((alias["properties"] as? [String: Any])?["alias"] as? String == "old-id")
    }

    @Test func posthogBodyIsTheDocumentedBatch() throws {
        let body = try #require(try json(posthog.body([Array(#"{"event":"a"}"#.utf8)], sentAt: timestamp)) as? [String: Any])
        #expect(body["api_key"] as? String == "phc_KEY" && body["historical_migration"] as? Bool == false)
        #expect((body["batch"] as? [Any])?.count == 1)
        #expect(PostHogHost.eu.batchURL.absoluteString == "https://eu.i.posthog.com/batch/")
        #expect(PostHogHost.selfHosted(URL(string: "https://ph.example.com")!).batchURL.absoluteString == "https://ph.example.com/batch/")
        guard case .rejected = posthog.classify(.init(status: 400, body: Data(#"{"type":"validation_error"}"#.utf8)), records: 3)
        else { Issue.record("400 splits"); return }
        guard case .failed(503, _, 5) = posthog.classify(.init(status: 503, retryAfter: "5", body: Data()), records: 3) else {
            Issue.record("503"); return
        }
    }

    // MARK: Secrets and endpoints

    @Test func serverSecretsAndInsecureEndpointsAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anna-secrets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: DestinationError.self) {
            try DurableProvider(collector: .posthog(projectAPIKey: "phx_personal"), storage: .memory(limit: 1 << 20))
        }
        do {
            _ = try DurableProvider(collector: .posthog(projectAPIKey: "phx_personal"), storage: .memory(limit: 1 << 20))
        } catch let error as DestinationError {
            #expect(error.code == .serverSecret && error.description.contains("phc_"))
        }
        #expect(throws: DestinationError.self) { try DurableProvider(collector: .mixpanel(token: ""), storage: .memory(limit: 1 << 20)) }
        #expect(throws: DestinationError.self) { try DurableProvider(collector: .amplitude(apiKey: ""), storage: .memory(limit: 1 << 20)) }
        do {
            _ = try DurableProvider(
                collector: .amplitude(apiKey: "key", region: .custom(URL(string: "http://api2.amplitude.com")!)),
                storage: .directory(folder))
            Issue.record("an http endpoint was accepted")
        } catch let error as DeliveryError {
            #expect(error.code == .insecureEndpoint)
        }
        #expect(MixpanelRegion.india.trackURL.absoluteString == "https://api-in.mixpanel.com/track?strict=1")
        #expect(MixpanelRegion.custom(URL(string: "https://mp.example.com/")!).trackURL.absoluteString == "https://mp.example.com/track?strict=1")
    }

    @Test func providersTakeTheCallsTheirVendorsMap() async throws {
        let amplitude = try DurableProvider(collector: .amplitude(apiKey: "k"), storage: .memory(limit: 1 << 20))
        let mixpanel = try DurableProvider(collector: .mixpanel(token: "k"), storage: .memory(limit: 1 << 20))
        let posthog = try DurableProvider(collector: .posthog(projectAPIKey: "phc_k"), storage: .memory(limit: 1 << 20))
        #expect(amplitude.options.receivedKinds == [.track, .identify, .group])
        #expect(mixpanel.options.receivedKinds == [.track, .identify])
        #expect(posthog.options.receivedKinds == Set(AnalyticsEnvelope.Kind.allCases))
        #expect(amplitude.options.profile == .amplitude && mixpanel.options.profile == .mixpanel && posthog.options.profile == .posthog)
        #expect(amplitude.configuration.maxBatchCount <= 2000 && mixpanel.configuration.maxBatchSize <= 1_000_000)
        #expect(amplitude.endpoint.absoluteString == "https://api2.amplitude.com/2/httpapi")
        #expect(mixpanel.endpoint.absoluteString == "https://api.mixpanel.com/track?strict=1")
        let euBatch = try DurableProvider(collector: .amplitude(apiKey: "k", region: .eu, api: .batch), storage: .memory(limit: 1 << 20))
        #expect(euBatch.endpoint.absoluteString == "https://api.eu.amplitude.com/batch")
        await euBatch.shutdown()
        await amplitude.shutdown()
        await mixpanel.shutdown()
        await posthog.shutdown()
    }
}
