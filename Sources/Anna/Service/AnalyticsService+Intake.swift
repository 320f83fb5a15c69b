extension AnalyticsService {
    /// What `report` touches, behind one short lock.
    struct Intake {
        var items: [Pipeline.Item] = []
        var spare: [Pipeline.Item] = []
        var isScheduled = false
        var isCollecting = true
        var isAccepting = true
        var epoch = 0
        var reported = 0
        var droppedOptOut = 0
        var droppedShutdown = 0
        var droppedOverflow = 0
        /// Overflow drops not yet given to the error handler; the pipeline reports them.
        var unreportedOverflow = 0
        /// Events reported and not yet handed to the lanes (in `items` or in the
        /// pipeline), and their estimated bytes: what ``Configuration/intakeLimit`` bounds.
        var heldEvents = 0
        var heldBytes = 0
        var grantedConsent: Set<ConsentCategory>
        /// Whether the stored identity was read.
        var isStarted = false
        /// Consent changes made before that, to replay over the stored choice.
        var earlyConsent: [ConsentChange] = []
        /// The app's own opt-out (`false`) or opt-in (`true`), which wins over the stored one.
        var collectingChoice: Bool?

        /// Drops the events and messages waiting in the intake, for an opt-out; calls
        /// stay, to change the state, but send nothing.
        mutating func withholdPending() {
            var dropped = 0
            for index in items.indices {
                switch items[index] {
                case .event(_, _, let size):
                    dropped += 1
                    heldEvents -= 1
                    heldBytes -= size
                    items[index] = .moved
                case .call(let call, let time, let size) where size > 0:
                    dropped += 1
                    heldEvents -= 1
                    heldBytes -= size
                    items[index] = .call(call, time, size: 0)
                default:
                    break
                }
            }
            items.removeAll { if case .moved = $0 { return true } else { return false } }
            droppedOptOut += dropped
        }

        init(grantedConsent: Set<ConsentCategory>) {
            self.grantedConsent = grantedConsent
            items.reserveCapacity(1024)
            spare.reserveCapacity(1024)
        }

        /// Marks the pipeline scheduled; `true` when the caller must start it.
        mutating func schedule() -> Bool {
            if isScheduled { return false }
            isScheduled = true
            return true
        }
    }
}
