import Anna

struct Flow {
    let analytics: AnalyticsService
    let other: Other

    func start() {
        analytics.report(.signedIn)
        analytics.report(AnalyticsEvent.itemOpened(row: 1))
        analytics.screen(.cart)
        // Not a factory: a property of another value with an event's name.
        _ = other.neverSent
    }
}

struct Other {
    var neverSent = 0
}
