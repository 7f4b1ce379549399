import NIOConcurrencyHelpers

/// The connections a server may have open at once, shared by all of them: a connection takes
/// a slot when its task starts and gives it back when the connection ends.
final class ConnectionSlots: Sendable {
    /// The most connections open at once.
    let limit: Int
    private let open = NIOLockedValueBox(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a slot; `false` when all are taken.
    func take() -> Bool {
        open.withLockedValue { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    /// Gives back a slot taken with ``take()``.
    func give() {
        open.withLockedValue { $0 -= 1 }
    }
}
