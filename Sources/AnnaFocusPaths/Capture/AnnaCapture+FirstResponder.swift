extension AnnaCapture {
    /// A request to become the first responder returned (`becomeFirstResponder`):
    /// records ``FocusEvent/Name/didBecomeFirstResponder`` only when the object was not
    /// the first responder before and is now. UIKit's `becomeFirstResponder` returns
    /// `true` for an object that already is, so its result alone would repeat the event.
    /// - Parameters:
    ///   - object: The object's analyzer.
    ///   - wasFirstResponder: Whether it was the first responder before the request.
    ///   - isFirstResponder: Whether it is now.
    package static func becomeFirstResponderReturned(
        _ object: Analyzer, wasFirstResponder: Bool, isFirstResponder: Bool
    ) {
        guard !wasFirstResponder, isFirstResponder else { return }
        didBecomeFirstResponder(object)
    }

    /// A request to resign the first responder returned (`resignFirstResponder`):
    /// records ``FocusEvent/Name/didResignFirstResponder`` only when the object was the
    /// first responder and no longer is (the default `resignFirstResponder` returns
    /// `true` for any object).
    /// - Parameters:
    ///   - object: The object's analyzer.
    ///   - wasFirstResponder: Whether it was the first responder before the request.
    ///   - isFirstResponder: Whether it is now.
    package static func resignFirstResponderReturned(
        _ object: Analyzer, wasFirstResponder: Bool, isFirstResponder: Bool
    ) {
        guard wasFirstResponder, !isFirstResponder else { return }
        didResignFirstResponder(object)
    }
}
