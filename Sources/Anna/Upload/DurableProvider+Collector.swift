import Foundation

extension DurableProvider {
    /// The collector a ``DurableProvider`` delivers to, as a value: its wire format,
    /// endpoint, headers, limits, the calls it takes and what its answers mean.
    /// ``segment(endpoint:writeKey:)`` here; AnnaDestinations adds `.amplitude(…)`,
    /// `.mixpanel(…)` and `.posthog(…)`.
    ///
    /// ```swift
    /// let amplitude = try DurableProvider(
    ///     collector: .amplitude(apiKey: "<project API key>", region: .eu),
    ///     storage: .directory(amplitudeFolder))
    /// ```
    ///
    /// Everything else is the provider's, the same for every collector: the durable
    /// queue, the upload state machine, retries, gzip, network paths, suspension,
    /// the loss count and the kill -9 guarantee.
    public struct Collector: Sendable {
        /// The provider's name in metrics and errors (``DurableProvider/name``).
        public let name: String
        /// The options a provider takes when it is given none: the collector's
        /// profile, no PII, no mapper.
        package let options: ProviderOptions
        /// How events become records, records a request, and answers decisions.
        package let wire: any CollectorWire
        /// The collector's own caps on batches and events.
        package let limits: Limits
        /// What was wrong with what the collector was given (a missing key): thrown
        /// by the provider's initializer, as a factory does not throw.
        package let problem: (any Error)?

        /// A collector.
        /// - Parameters:
        ///   - name: The provider's name in metrics and errors.
        ///   - wire: The wire protocol.
        ///   - options: The options a provider takes when it is given none.
        ///   - limits: The collector's caps.
        ///   - problem: What the provider's initializer throws, if anything.
        package init(
            name: String, wire: any CollectorWire, options: ProviderOptions = ProviderOptions(),
            limits: Limits = Limits(), problem: (any Error)? = nil
        ) {
            self.name = name
            self.wire = wire
            self.options = options
            self.limits = limits
            self.problem = problem
        }

        /// A collector of Segment's HTTP Tracking API (Segment, RudderStack and
        /// compatible servers): `POST` of `{"batch":[…],"sentAt":…}` with the write key
        /// as the user of HTTP basic auth. It takes every call of the Segment spec
        /// (`track`, `screen`, `identify`, `group`, `alias`). Its provider is named
        /// `DurableProvider`.
        /// - Parameters:
        ///   - endpoint: The batch endpoint, e.g. `https://api.segment.io/v1/batch`.
        ///     `https` only; `http` only for 127.0.0.0/8, `::1` and `localhost`.
        ///   - writeKey: The source's write key.
        /// - Returns: The collector.
        public static func segment(endpoint: URL, writeKey: String) -> Collector {
            Collector(name: "HTTPBatchProvider", wire: SegmentWire(endpoint: endpoint, writeKey: writeKey))
        }
    }

    /// A collector's caps, applied to a provider's ``Configuration``: each lowers the
    /// configured value, never raises it.
    package struct Limits: Sendable {
        /// The most events in one request.
        package var maxBatchCount: Int?
        /// The largest request body before compression.
        package var maxBatchSize: Int?
        /// The largest event, encoded.
        package var maxEventSize: Int?

        /// Caps; `nil` leaves the configured value.
        package init(maxBatchCount: Int? = nil, maxBatchSize: Int? = nil, maxEventSize: Int? = nil) {
            self.maxBatchCount = maxBatchCount
            self.maxBatchSize = maxBatchSize
            self.maxEventSize = maxEventSize
        }

        /// `configuration` with each of its limits lowered to the collector's.
        func applied(to configuration: Configuration) -> Configuration {
            var configuration = configuration
            if let maxBatchCount { configuration.maxBatchCount = min(configuration.maxBatchCount, maxBatchCount) }
            if let maxBatchSize { configuration.maxBatchSize = min(configuration.maxBatchSize, maxBatchSize) }
            if let maxEventSize { configuration.maxEventSize = min(configuration.maxEventSize, maxEventSize) }
            return configuration
        }
    }
}
