import _AnnaGeneratorCore

/// What the benchmarks package reaches across the package boundary, where `package`
/// declarations are not visible: an inspector on a spec, fed request bodies. Not an API.
@_spi(Benchmarks) public final class InspectorBenchmarkHarness: Sendable {
    private let inspector: Inspector
    private let prepared: [JSONValue]

    /// An inspector with the default limits on the spec at `specPath`, with `batches`
    /// parsed ahead for ``checkPrepared()``.
    /// - Throws: ``SpecError`` when the spec cannot be read or has errors.
    public init(specPath: String, preparing batches: [[UInt8]] = []) throws(SpecError) {
        let (spec, diagnostics) = AnnaGenerator().check(try AnnaGenerator.read(specPath), file: specPath)
        guard let spec else { throw SpecError(diagnostics: diagnostics) }
        inspector = Inspector(plan: InspectionPlan(specs: [spec]))
        prepared = batches.flatMap { bytes -> [JSONValue] in
            guard case .array(let calls)? = (try? JSONParser.parse(bytes))?["batch"] else { return [] }
            return calls
        }
    }

    /// An inspector with the default limits on several versions of a plan: the specs at
    /// `specPaths` (the current ones) and at `releasedSpecPaths`, each declaring its `version:`.
    /// - Throws: ``SpecError`` when a spec cannot be read or has errors.
    public init(specPaths: [String], releasedSpecPaths: [String], preparing batches: [[UInt8]] = []) throws(SpecError) {
        func load(_ path: String) throws(SpecError) -> TrackingSpec {
            let (spec, diagnostics) = AnnaGenerator().check(try AnnaGenerator.read(path), file: path)
            guard let spec else { throw SpecError(diagnostics: diagnostics) }
            return spec
        }
        var current: [TrackingSpec] = []
        for path in specPaths { current.append(try load(path)) }
        var released: [TrackingSpec] = []
        for path in releasedSpecPaths { released.append(try load(path)) }
        inspector = Inspector(versions: PlanVersions(current: current, released: released))
        prepared = batches.flatMap { bytes -> [JSONValue] in
            guard case .array(let calls)? = (try? JSONParser.parse(bytes))?["batch"] else { return [] }
            return calls
        }
    }

    /// Takes one `/v1/batch` request as the server would: parse, check, record.
    /// - Returns: The HTTP status it answers.
    public func ingest(batch body: [UInt8]) -> Int {
        inspector.ingest(Inspector.Request(method: "POST", path: "/v1/batch", contentType: "application/json", contentEncoding: nil, body: body)).status
    }

    /// Checks the prepared calls, without parsing or recording.
    /// - Returns: How many findings they have.
    public func checkPrepared() -> Int {
        var findings = 0
        for call in prepared { findings += inspector.checker.check(call).findings.count }
        return findings
    }

    /// Calls recorded so far, and calls kept with their JSON.
    public var counts: (recorded: Int, kept: Int) {
        let log = inspector.log
        return (log.totals.calls, log.recent.count)
    }
}
