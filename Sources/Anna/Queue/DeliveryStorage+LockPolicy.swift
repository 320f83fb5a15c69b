extension DeliveryStorage {
    /// When a provider's queue holds the file locks of its storage: the queue's own
    /// `lock`, and on a ``DeliveryStorage/shared(_:)`` folder `claim.lock` and
    /// `upload.lock`.
    ///
    /// iOS terminates a suspended process that holds a file lock in an App Group
    /// container (exception code `0xdead10cc`). An app is told before it is suspended
    /// and can give its locks up (``DurableProvider/suspend()``); an app extension
    /// often is not, so it must hold no lock while it is idle.
    public enum LockPolicy: Sendable, Hashable, CaseIterable {
        /// The queue holds its lock from start to ``DurableProvider/shutdown()``
        /// (or ``DurableProvider/suspend()``), and the uploader holds `upload.lock`
        /// (a `flock`) for the whole of each request. The default: an app is told when
        /// it moves to the background.
        case whileRunning
        /// For app extensions. The queue takes its lock for each disk operation (a
        /// write and sync, a read, an acknowledgement) and gives it up right after;
        /// between them no descriptor of the folder is open. Each time it takes the
        /// lock back it compares the folder with what it left (segment names and sizes,
        /// the acknowledgement cursor) and reads it anew if another process adopted or
        /// changed it meanwhile. Events reported while the lock is free wait in memory,
        /// within ``Configuration/maxBufferedBytes``. On a shared folder, when another
        /// process holds the queue for longer than a moment (it adopted it, or another
        /// instance of the extension claimed it), the queue moves to another one of the
        /// folder. The uploader marks `upload.lock` with a lease (its process id and an
        /// expiry, ``DurableProvider/Configuration/requestTimeout`` plus a second) under
        /// a brief `flock` instead of holding the `flock` while the request is in flight,
        /// so a process suspended mid-request holds no lock and blocks the others' uploads
        /// until the lease expires at most.
        ///
        /// Costs one directory listing and a `stat` per segment each time the lock is
        /// taken back, and a new open of the segment file: see Benchmarks/README.md's
        /// measurements.
        case aroundIO
    }
}
