/// Suspensions: the app goes to the background and comes back. The machine decides
/// when the queue's storage is released and retaken (``StorageOwnership``); its one
/// driver, the uploader thread, does it (``Step/releaseStorage``,
/// ``Step/retakeStorage``) and reports back, and the machine resumes the callers of
/// `suspend()` and `resume()` after those steps. As async-http-client's connection
/// pool has one driver perform every action its state machine returns, no caller's
/// thread touches the storage.
extension UploadStateMachine {
    /// The app is about to be suspended: hold, holding no records and sending nothing,
    /// and release the storage. The waiter is resumed once the storage is released, or
    /// once the app came back before it was; at once when it is released already or
    /// the machine finished. `resume()` callers still waiting for a retake that has not
    /// begun return now: the last call wins.
    mutating func suspendRequested(_ waiter: Waiter) -> [Effect] {
        if isFinished { return [.resume([waiter])] }
        let wasSuspended = isSuspended
        storage.suspendRequested()
        // A `resume()` waiting for a retake that has not begun is overtaken by this call.
        var overtaken: [Waiter] = []
        if storage.state == .released || storage.state == .releasing {
            overtaken = resumeWaiters
            resumeWaiters = []
        }
        if storage.state == .released { overtaken.append(waiter) } else { suspendWaiters.append(waiter) }
        let effects: [Effect] = overtaken.isEmpty ? [] : [.resume(overtaken)]
        return wasSuspended ? effects : holdBegan() + effects
    }

    /// The app came back: read and send again once the storage is retaken. The waiter
    /// is resumed once it is (or could not be: the error goes to the error handler and
    /// the machine stays suspended until a later `resume()`); at once when the storage
    /// was never released (the hold just ends, and so do the suspensions waiting for
    /// the release) and once the machine finished: a resume after a stop orders nothing.
    mutating func resumeRequested(_ waiter: Waiter) -> [Effect] {
        if isFinished { return [.resume([waiter])] }
        storage.resumeRequested()
        guard storage.state == .held else {
            resumeWaiters.append(waiter)
            return []
        }
        defer { suspendWaiters = [] }
        return [.resume(suspendWaiters + [waiter])]
    }

    /// The storage step due when the driver asks: it holds no records then (the hold
    /// abandoned its batch and cancelled its request).
    mutating func nextStorageStep() -> Step? {
        switch storage.next() {
        case .none:
            return nil
        case .release:
            _ = holdBegan()
            return .releaseStorage
        case .retake:
            return .retakeStorage
        }
    }

    /// The driver released the storage (after ``Step/releaseStorage``): the
    /// suspensions waiting for it return. A `resume()` that came meanwhile makes the
    /// retake the next step.
    mutating func storageReleased() -> [Effect] {
        storage.released()
        defer { suspendWaiters = [] }
        return suspendWaiters.isEmpty ? [] : [.resume(suspendWaiters)]
    }

    /// The driver retook the storage (after ``Step/retakeStorage``), or could not
    /// (`failure`, reported): the resumptions waiting for it return. A `suspend()`
    /// that came meanwhile makes a release the next step.
    mutating func storageRetaken(failure: DeliveryError?) -> [Effect] {
        storage.retaken(failure == nil)
        var effects: [Effect] = failure.map { [.report($0)] } ?? []
        var waiters = resumeWaiters
        resumeWaiters = []
        if storage.state == .released {
            // Still released: the suspensions that came meanwhile are done too.
            waiters += suspendWaiters
            suspendWaiters = []
        } else if !storage.wantsSuspended {
            // Running again: the round a suspension abandoned starts over.
            roundWanted = true
        }
        if !waiters.isEmpty { effects.append(.resume(waiters)) }
        return effects
    }
}
