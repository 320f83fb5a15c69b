import Anna
import Foundation

@testable import AnnaDestinations

/// The three vendors, made against one loopback collector.
enum Vendor: String, CaseIterable, CustomStringConvertible, Sendable {
    case amplitude, mixpanel, posthog

    var description: String { rawValue }

    /// A provider of this vendor sending to `collector`, on `directory`.
    func provider(
        _ collector: VendorCollector, directory: URL, configuration: HTTPBatchProvider.Configuration = .fast
    ) throws -> any DestinationUnderTest {
        let storage = DeliveryStorage.directory(directory)
        switch self {
        case .amplitude:
            return try AmplitudeProvider(
                apiKey: VendorCollector.key, storage: storage, region: .custom(collector.base),
                options: ProviderOptions(), configuration: configuration)
        case .mixpanel:
            return try MixpanelProvider(
                token: VendorCollector.key, storage: storage, region: .custom(collector.base), options: ProviderOptions(),
                configuration: configuration)
        case .posthog:
            return try PostHogProvider(
                projectAPIKey: VendorCollector.key, storage: storage, host: .selfHosted(collector.base),
                options: ProviderOptions(), configuration: configuration)
        }
    }
}

/// What the tests use of every destination provider.
protocol DestinationUnderTest: AnalyticsProvider {
    var metrics: HTTPBatchProvider.Metrics { get }
    func waitUntilPersisted() async
    func networkPathChanged(_ path: NetworkPath)
}

extension AmplitudeProvider: DestinationUnderTest {}
extension MixpanelProvider: DestinationUnderTest {}
extension PostHogProvider: DestinationUnderTest {}

extension HTTPBatchProvider.Configuration {
    /// Uploads on flush only, retries within milliseconds.
    static var fast: Self {
        HTTPBatchProvider.Configuration(
            flushAt: 1_000_000, flushInterval: .seconds(3600), initialRetryDelay: .milliseconds(10),
            maxRetryDelay: .milliseconds(50), requestTimeout: .seconds(5))
    }
}

/// A folder removed by the test.
struct TemporaryDirectory {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("anna-destinations-\(UUID().uuidString)")
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Polls until `condition` holds, at most `seconds`.
func eventually(within seconds: Double = 20, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}

/// Numbered track events with a fixed session and context, as the service makes them.
func numberedEnvelopes(_ numbers: Range<Int>, userID: String? = "user-42") -> [AnalyticsEnvelope] {
    numbers.map { number in
        AnalyticsEnvelope(
            event: AnalyticsEvent(name: "Numbered", parameters: ["n": .int(number)]), messageID: UUID(),
            timestamp: Date(), sessionID: 1_763_895_600_000, anonymousID: "anon-device-1", userID: userID,
            context: AnalyticsContext(
                app: .init(name: "Shop", version: "1.2", build: "7"), device: .init(model: "iPhone16,1", manufacturer: "Apple"),
                os: .init(name: "iOS", version: "18.1"), locale: "en_US", timezone: "Europe/Paris"))
    }
}

/// Collects what a provider reports, from its threads.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [DeliveryError] = []
    var handler: @Sendable (DeliveryError) -> Void { { [self] error in lock.withLock { errors.append(error) } } }
    var all: [DeliveryError] { lock.withLock { errors } }
}

/// `AnnaDeliveryChild`, built beside the test bundle, its output in a file so that
/// nothing it printed before a SIGKILL is lost.
final class ChildProcess {
    let process = Process()
    private let output: URL

    static var executable: URL {
        let test = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: test).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("AnnaDeliveryChild").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("AnnaDeliveryChild")
    }

    init(_ arguments: [String]) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("anna-child-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
    }

    func kill() {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    func wait(seconds: Double) async -> Bool {
        let exited = await eventually(within: seconds) { !process.isRunning }
        if !exited { kill() } else { process.waitUntilExit() }
        return exited
    }

    var lines: [String] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    deinit {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: output)
    }
}
