import Anna

extension ProviderProfile {
    /// PostHog: an event of at most 1 MB, and `$` reserved for PostHog's own events and
    /// properties. The generator checks it for specs listing `posthog` under `providers:`.
    public static var posthog: ProviderProfile { posthogProfile }
}
