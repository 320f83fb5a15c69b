/// Wakes callers of ``AnalyticsService/reportWaitingForRoom(_:)`` when the intake or
/// a provider's lane frees room, and the pipeline when it waits for a lane
/// (``LanePacing``). A generation counter closes the gap between a caller finding
/// no room and starting to wait: a signal in between is not lost.
///
/// All state is behind one lock; `signal()` is one lock round when nobody waits.
final class RoomSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var handler: (@Sendable () -> Void)?
    }

    private let state = LockedState(State())

    /// The number of signals so far.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Returns at the next signal, or at once when one came after `generation` was read.
    func wait(unlessSignalledSince generation: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let signalled = state.withLock { state -> Bool in
                guard state.generation == generation else { return true }
                state.waiters.append(continuation)
                return false
            }
            if signalled { continuation.resume() }
        }
    }

    /// Sets what runs at every signal, after the waiters are woken.
    func onSignal(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.handler = handler }
    }

    /// Room may have been freed: wakes every waiter to look again.
    func signal() {
        let (waiters, handler) = state.withLock { state -> ([CheckedContinuation<Void, Never>], (@Sendable () -> Void)?) in
            state.generation &+= 1
            guard !state.waiters.isEmpty else { return ([], state.handler) }
            defer { state.waiters.removeAll() }
            return (state.waiters, state.handler)
        }
        for waiter in waiters { waiter.resume() }
        handler?()
    }
}
