import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an answer of the collector means for the upload: the HTTP knowledge the
/// upload machine needs, as a value it decides on (``UploadStateMachine``).
extension CollectorTransport {
    /// The collector's answer to one request, classified.
    package enum Answer: Equatable {
        /// 2xx.
        case accepted
        /// The collector named records it refuses for good, at these indices of the
        /// request, each with its reason. `restAccepted`: it ingested the others
        /// (Mixpanel's `strict=1`); otherwise it ingested nothing and the others are
        /// sent again (Amplitude's 400).
        case recordsRejected(status: Int, reasons: [Int: String], restAccepted: Bool)
        /// 400, with an excerpt of the body.
        case rejected(status: Int, body: String)
        /// 413.
        case tooLarge
        /// 3xx: never followed.
        case redirected(status: Int, location: String?)
        /// Anything else: 5xx, 429, 401, a timeout, no connection.
        case failed(status: Int?, message: String, retryAfter: TimeInterval?)

        /// Classifies a response: a cut answer is no acceptance, a redirect is never
        /// followed, `Retry-After` is read on failures.
        package init(_ response: Response) {
            guard let status = response.status else {
                self = .failed(status: nil, message: response.error ?? "no response", retryAfter: nil)
                return
            }
            switch status {
            case 300..<400:
                self = .redirected(status: status, location: response.location)
            case _ where response.error != nil:
                // Retried, the collector drops duplicates by message id.
                self = .failed(status: status, message: response.error ?? "", retryAfter: nil)
            case 200..<300:
                self = .accepted
            case 400:
                self = .rejected(status: status, body: String(decoding: response.body.prefix(512), as: UTF8.self))
            case 413:
                self = .tooLarge
            default:
                self = .failed(
                    status: status, message: HTTPURLResponse.localizedString(forStatusCode: status),
                    retryAfter: response.retryAfter.flatMap { Self.parseRetryAfter($0) })
            }
        }

        /// `Retry-After` as delta-seconds or an HTTP-date (RFC 9110), as seconds from now,
        /// at least zero (the state machine raises it to the backoff's floor).
        package static func parseRetryAfter(_ value: String, now: Date = Date()) -> TimeInterval? {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if let seconds = Int(trimmed) { return TimeInterval(max(seconds, 0)) }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
                formatter.dateFormat = format
                if let date = formatter.date(from: trimmed) { return max(0, date.timeIntervalSince(now)) }
            }
            return nil
        }
    }
}
