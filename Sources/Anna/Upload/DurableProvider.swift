import Foundation

/// Delivers events to a collector over HTTP without losing them to crashes,
/// restarts, offline periods or server errors: the one durable provider, whatever
/// the collector. The collector is a value (``Collector``): Segment's HTTP Tracking
/// API (Segment, RudderStack and compatible servers) here, Amplitude, Mixpanel and
/// PostHog from AnnaDestinations, as swift-log's `Logger` takes its backend as a value.
///
/// ```swift
/// let segment = try DurableProvider(
///     endpoint: URL(string: "https://collector.example.com/v1/batch")!,
///     writeKey: "…",
///     storage: .directory(appSupportURL))
/// let analytics = AnalyticsService(providers: [segment])
/// ```
///
/// ``receive(_:)`` encodes each event once, in the collector's wire format with the
/// message id the service gave it at `report` time, and appends it to a `DurableQueue`.
/// The queue's writer syncs within ``DeliveryStorage/Configuration/syncInterval``
/// (50 ms by default); from then on the event is *accepted*: counted in
/// ``Metrics/persisted``, and a crash or `kill -9` no longer loses it. Events still
/// in the service's memory (a few milliseconds after `report`) or in the queue's
/// buffer are not yet accepted; ``waitUntilPersisted()``, ``AnalyticsService/flush()``
/// and ``AnalyticsService/shutdown()`` wait for them.
///
/// An uploader thread of the provider's own sends batches (up to 500 events and
/// 500 KB for Segment; each collector caps them at its own limits), one request at a
/// time: when ``Configuration/flushAt`` events wait, every
/// ``Configuration/flushInterval``, and on ``flush()`` and ``shutdown()``. Events
/// leave the disk only once the collector answered 2xx (or rejected them for good).
/// 5xx, 429, 3xx (redirects are never followed), timeouts and refused or dropped
/// connections are retried forever with exponential backoff and full jitter,
/// honouring `Retry-After` (never sooner than the backoff's ceiling). Each request
/// has a total deadline, ``Configuration/requestTimeout``. A 400 or 413 splits the
/// batch in halves until the refused events are alone (a collector that names the
/// refused records, as Amplitude and Mixpanel do, drops just those); only those are
/// dropped and reported. After ``Configuration/maxRejectedInARow`` single events
/// answered 400 in a row, the collector is taken as failing: nothing more is dropped,
/// the uploader backs off. A retried event carries the same message id, so a
/// collector drops the duplicates that a crash between its answer and the
/// acknowledgement can cause.
///
/// Every event it drops after receiving it (refused, too large, a disk or age cap, a
/// failed write, a purge) is counted in ``Metrics/dropped`` and in the service's
/// ``AnalyticsMetrics/lost`` under the provider's ``name``, and reported to
/// ``Configuration/errorHandler``.
///
/// The uploader thread runs until ``shutdown()``, which ``AnalyticsService/shutdown()``
/// calls. Use one provider per storage directory and process: a second one on the
/// same directory fails with ``DeliveryError`` with code ``DeliveryError/Code/storageLocked``. An app and its
/// extensions share a folder with ``DeliveryStorage/shared(_:)``: each process
/// writes its own queue there, one uploads at a time, and the queues of processes
/// that ended are adopted and delivered by a live one. An app extension, which may be
/// suspended without warning, sets `configuration.queue.lockPolicy` to
/// ``DeliveryStorage/LockPolicy/aroundIO`` so that it holds no lock while idle.
///
/// Threads: ``receive(_:)`` runs on the service's lane for this provider, with the
/// encoder behind its own lock; the counters are behind theirs. The queue's state
/// belongs to its writer queue and the upload decisions to the uploader thread.
public final class DurableProvider: AnalyticsProvider {
    /// The provider's name in metrics and errors: the collector's
    /// (``Collector/name``), e.g. `DurableProvider` for Segment's API.
    public let name: String
    /// The collector: its wire format, endpoint and limits.
    public let collector: Collector
    /// The URL batches are posted to.
    public var endpoint: URL { collector.wire.endpoint }
    /// The provider's configuration, with batches within the collector's limits.
    public let configuration: Configuration
    /// PII, naming and profile for this provider. Its `receivedKinds` are the calls
    /// the collector takes (every kind for Segment's API).
    public let options: ProviderOptions
    let queue: DurableQueue
    let encoder: LockedState<any CollectorRecordEncoder>
    let counters: LockedState<Metrics>
    let uploader: BatchUploader

    /// Creates a provider that sends to a collector of Segment's HTTP Tracking API
    /// (``Collector/segment(endpoint:writeKey:)``), and starts its writer and uploader.
    /// - Parameters:
    ///   - endpoint: The batch endpoint, e.g. `https://api.segment.io/v1/batch`.
    ///     `https` only; `http` only for 127.0.0.0/8, `::1` and `localhost`.
    ///   - writeKey: The source's write key, sent as the user of HTTP basic auth.
    ///   - storage: Where events wait: ``DeliveryStorage/directory(_:)`` to survive
    ///     crashes, ``DeliveryStorage/shared(_:)`` for a folder an app shares with its
    ///     extensions, or ``DeliveryStorage/memory(limit:)``.
    ///   - options: PII and naming for this provider; none by default. Its
    ///     `receivedKinds` is set to every kind: the provider sends them all.
    ///   - configuration: Flush triggers, limits, retries and the queue's caps.
    /// - Throws: ``DeliveryError`` with code ``DeliveryError/Code/insecureEndpoint`` for any other endpoint;
    ///   ``DeliveryError`` with code ``DeliveryError/Code/storageLocked`` when another provider or queue, in this
    ///   process or another, uses the storage directory; ``DeliveryError/Code/storage``
    ///   when the directory cannot be created or locked.
    public convenience init(
        endpoint: URL,
        writeKey: String,
        storage: DeliveryStorage,
        options: ProviderOptions = ProviderOptions(),
        configuration: Configuration = Configuration()
    ) throws {
        try self.init(
            collector: .segment(endpoint: endpoint, writeKey: writeKey), storage: storage,
            options: options, configuration: configuration)
    }

    /// Creates a provider for a collector and starts its writer and uploader. Touches
    /// no disk on the calling thread: recovery of earlier events runs on the queue's writer.
    /// - Parameters:
    ///   - collector: The collector: ``Collector/segment(endpoint:writeKey:)``, or
    ///     AnnaDestinations' `.amplitude(…)`, `.mixpanel(…)` and `.posthog(…)`.
    ///   - storage: Where events wait; a folder of the provider's own, apart from
    ///     other providers'.
    ///   - options: PII, naming and profile for this provider; `nil` (the default)
    ///     for the collector's (its profile, no PII, no mapper). Its `receivedKinds` is set to
    ///     the calls the collector takes.
    ///   - configuration: Flush triggers, limits, retries and the queue's caps; batch
    ///     and event sizes are lowered to the collector's limits.
    /// - Throws: what the collector found wrong with what it was given (AnnaDestinations'
    ///   `DestinationError` for a missing or secret key); ``DeliveryError`` with code
    ///   ``DeliveryError/Code/insecureEndpoint`` for an endpoint neither `https` nor loopback
    ///   `http`; ``DeliveryError/Code/storageLocked`` or ``DeliveryError/Code/storage``
    ///   when the storage cannot be opened.
    public init(
        collector: Collector,
        storage: DeliveryStorage,
        options: ProviderOptions? = nil,
        configuration: Configuration = Configuration()
    ) throws {
        if let problem = collector.problem { throw problem }
        let wire = collector.wire
        guard Self.isAllowed(wire.endpoint) else { throw DeliveryError.insecureEndpoint(wire.endpoint) }
        let configuration = collector.limits.applied(to: configuration)
        var options = options ?? collector.options
        options.receivedKinds = wire.receivedKinds
        name = collector.name
        self.collector = collector
        self.configuration = configuration
        self.options = options
        encoder = LockedState(wire.makeEncoder())
        let errorHandler = configuration.errorHandler
        do {
            queue = try DurableQueue(
                storage: storage, configuration: configuration.queue,
                errorHandler: { error in errorHandler?(.storage(error)) })
        } catch let error as DurableStorageError where error.isLockConflict {
            throw DeliveryError.storageLocked(error)
        } catch let error as DurableStorageError {
            throw DeliveryError.storage(error)
        }
        let counters = LockedState(Metrics())
        self.counters = counters
        var shared: SharedDeliveryFolder?
        if case .shared(let folder) = storage {
            shared = SharedDeliveryFolder(
                folder: folder, lockPolicy: configuration.queue.lockPolicy,
                uploadLease: configuration.requestTimeout + .seconds(1), syncMode: configuration.queue.syncMode)
        }
        uploader = BatchUploader(wire: wire, queue: queue, configuration: configuration, counters: counters, shared: shared)
        uploader.start()
    }

    // MARK: AnalyticsProvider

    /// Persists what was received, then waits for an upload round that started after
    /// the call: it sends everything persisted, or ends at a failed attempt (the
    /// uploader retries later on its own). Returns at once while the uploader waits
    /// out a backoff, and while the provider is suspended (``suspend()``): nothing
    /// can be written or sent then.
    public func flush() async throws {
        await uploader.flush()
    }

    /// Deletes every event not yet delivered (the user opted out). Once it returns,
    /// no request carries an event received before the call: new requests wait, the
    /// one in flight is cancelled and its answer ignored, then the queue is purged.
    /// On a shared folder, the queues of ended processes that this one would adopt
    /// are purged too; live processes purge their own.
    public func purge() async {
        await uploader.purge()
    }

    /// Persists what was received, makes a last upload attempt unless backing off,
    /// stops the uploader and releases the storage directory's lock, so that a new
    /// provider may open it. Undelivered events stay on disk for the next start.
    /// While suspended (``suspend()``) it sends nothing: it retakes the storage
    /// just long enough to persist what waited in memory, if it can.
    public func shutdown() async {
        await uploader.stop()
    }

    /// Writes and syncs what was received, closes the storage's files and releases
    /// every lock, for an app about to be suspended (iOS kills a suspended app that
    /// holds a file lock in an App Group container): the request in flight is
    /// cancelled (its events are sent again later, with their message ids), no new
    /// one starts, and on a shared folder the upload lock is free too. Events
    /// received meanwhile wait in memory, within the queue's buffer bound, until
    /// ``resume()``. The service calls it after its flush when the app goes to the
    /// background. Calling it again while suspended does nothing.
    public func suspend() async {
        await uploader.suspend()
    }

    /// Takes the storage directory's lock again after ``suspend()`` and reads the
    /// directory anew (an extension may have written meanwhile), then resumes writing
    /// and uploading. On a shared folder, when another process adopted this process's
    /// queue meanwhile, the provider claims another queue in the folder and writes
    /// there. A failure goes to the error handler: ``DeliveryError`` with code
    /// ``DeliveryError/Code/storageLocked`` when another process took the directory
    /// meanwhile (a ``DeliveryStorage/directory(_:)`` only), ``DeliveryError/Code/storage``
    /// when it cannot be opened. The provider then stays suspended, events waiting in
    /// memory, until a later `resume()` succeeds. After ``shutdown()`` it does nothing.
    public func resume() async {
        await uploader.resume()
    }

    // MARK: Network path

    /// Tells the uploader what the device's network offers. While the path is
    /// unreachable it makes no request (a flush returns once what it received is
    /// persisted, as while backing off); as soon as a path returns it uploads what
    /// is due, without waiting out a backoff that the outage's failed attempts began
    /// (one a collector asked for with 429 or 5xx stands). On an expensive or
    /// constrained path, ``Configuration/maxBacklogOnExpensivePath`` holds larger
    /// backlogs. The path is ``NetworkPath/reachable`` until this is called. On Apple
    /// platforms AnnaApple's `NetworkPathMonitor` calls it with `NWPathMonitor`'s updates.
    /// - Parameter path: The current path.
    public func networkPathChanged(_ path: NetworkPath) {
        uploader.pathChanged(path)
    }

    // MARK: State

    /// Waits until every event received before the call is written and synced
    /// (accepted), or failed to be (``DropReason/writeFailed``).
    public func waitUntilPersisted() async {
        await queue.waitUntilPersisted()
    }

    /// What the provider's queue counted since it opened: its `fsync`s among them.
    @_spi(DurableQueue) public var queueMetrics: DurableQueue.Metrics { queue.metrics }

    /// What the provider counted since it started.
    public var metrics: Metrics {
        let stored = queue.metrics
        var metrics = counters.withLock { $0 }
        metrics.persisted = stored.persisted
        metrics.backlog = stored.backlog
        metrics.recovered = stored.recovered
        metrics.skippedBytes = stored.skippedBytes
        for (reason, count) in stored.dropped where count > 0 {
            metrics.dropped[reason, default: 0] += count
        }
        return metrics
    }

    /// ``Metrics/dropped``: the service adds it to ``AnalyticsMetrics/lost``.
    public var droppedEvents: [DropReason: Int] { metrics.dropped }
}
