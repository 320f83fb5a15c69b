/// Counts parties down and runs an action when the last one arrives. The lanes are
/// the parties of a drain; with no lanes the pipeline is its one party.
final class Barrier: Sendable {
    private let remaining: LockedState<Int>
    private let action: @Sendable () -> Void

    init(parties: Int, action: @escaping @Sendable () -> Void) {
        remaining = LockedState(parties)
        self.action = action
    }

    func arrive() {
        if remaining.withLock({ remaining -> Bool in
            remaining -= 1
            return remaining == 0
        }) {
            action()
        }
    }
}
