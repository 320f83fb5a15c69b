extension Double {
    /// `3` for whole numbers, `2.5` otherwise: how a spec's limits appear in messages,
    /// in generated code and in run-time violations alike.
    package var compactDescription: String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
