extension AnalyticsEvent {
    /// A lifecycle event with Segment's name and properties (`Application Installed`,
    /// `Updated`, `Opened`, `Backgrounded`): the app's version and build, except on
    /// `Backgrounded`, and `from_background` where given.
    static func lifecycle(_ name: String, app: AnalyticsContext.App, fromBackground: Bool? = nil) -> AnalyticsEvent {
        var parameters: [String: AnalyticsValue] = [:]
        if name != "Application Backgrounded" {
            parameters["version"] = app.version.map(AnalyticsValue.string)
            parameters["build"] = app.build.map(AnalyticsValue.string)
        }
        if let fromBackground { parameters["from_background"] = .bool(fromBackground) }
        return AnalyticsEvent(name: name, parameters: parameters)
    }
}
