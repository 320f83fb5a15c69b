@_spi(Generated) import Anna
import Foundation
import Testing

/// Errors are structs over a code: apps switch over `code` with a `default` and read
/// the details the kind carries, as the README shows.
@Suite struct ErrorCodeTests {
    @Test func aProviderFailureCarriesItsProviderBatchAndError() async {
        let errors = ErrorLog()
        let analytics = AnalyticsService(
            providers: [ThrowingProvider()],
            configuration: AnalyticsService.Configuration(errorHandler: errors.handler)
        )
        analytics.report(.categorySelected)
        await analytics.flush()
        let kinds = errors.errors.map { error -> String in
            switch error.code {
            case .providerFailed: "failed \(error.provider ?? "?") \(error.batch.count) \(error.underlyingError is ThrowingProvider.Failure)"
            case .intakeOverflow, .providerOverflow: "overflow"
            default: "other"
            }
        }
        #expect(kinds == ["failed ThrowingProvider 1 true"])
        #expect(errors.errors.first?.description.hasPrefix("provider 'ThrowingProvider' failed on a batch of 1 event(s)") == true)
    }

    @Test func kindsCompareByCodeAndPrintTheirName() {
        let overflow = AnalyticsError.intakeOverflow(events: 3)
        #expect(overflow.code == .intakeOverflow)
        #expect(overflow.code != .providerOverflow)
        #expect(overflow.events == 3)
        #expect(overflow.provider == nil)
        #expect("\(overflow.code)" == "intakeOverflow")

        let locked = DeliveryError.storageLocked(DurableStorageError(operation: "locking", path: "/tmp/x/lock", code: EWOULDBLOCK))
        #expect(locked.code == .storageLocked)
        #expect(locked.storageError?.isLockConflict == true)
        let retry = DeliveryError.retrying(status: 503, message: "HTTP 503", delay: 1.5)
        #expect(retry.code == .retrying && retry.status == 503 && retry.delay == 1.5)
        #expect(retry.description == "upload failed (HTTP 503); retrying in 1.50 s")
        let insecure = DeliveryError.insecureEndpoint(URL(string: "http://example.com/v1/batch")!)
        #expect(insecure.endpoint?.host == "example.com")
        #expect(insecure.description.contains("not 'http://example.com/v1/batch'"))
    }
}
