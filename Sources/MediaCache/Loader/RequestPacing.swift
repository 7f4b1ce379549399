/// Decides when a ranged fetch sends its next origin request, and how far it asks.
///
/// A pure function of what the fetch's readers have shown: what one request asks for is what
/// the origin may send whatever happens next, because socket buffers on both sides hold
/// megabytes that a cancel cannot call back. So an open-ended fetch asks only a *lead* beyond
/// its furthest reader: ``LoaderConfiguration/initialReadahead`` at first, growing with the
/// bytes its readers consumed (a quarter of them) up to ``LoaderConfiguration/readahead``. The
/// next request goes out once the reader is within half a lead of the bytes asked for, while
/// the current one is still arriving, so the origin never waits on a round trip. A bounded
/// read asks for exactly its bytes.
struct RequestPacing: Equatable {
    /// The first lead of an open-ended fetch.
    let initialLead: Int64
    /// The largest lead.
    let maximumLead: Int64
    /// The most one request asks for.
    let requestWindow: Int64

    /// A reader of the fetch, as the pacing sees it.
    struct Reader: Equatable {
        /// The next byte the reader will consume.
        var position: Int64
        /// One past its last byte; `nil` reads to the end.
        var end: Int64?
    }

    /// What the fetch should do now.
    enum Decision: Equatable {
        /// Ask the origin for the bytes from what was asked so far to this offset.
        case request(upTo: Int64)
        /// Ask for nothing yet; look again when the readers move.
        case wait
        /// Ask for nothing more: no reader needs more, or the gap is asked for whole.
        case done
    }

    /// The lead of an open-ended fetch whose readers consumed `consumed` bytes of it.
    func lead(consumed: Int64) -> Int64 {
        min(maximumLead, max(initialLead, consumed / 4))
    }

    /// The next step of a fetch that started at `start` and has asked for everything before
    /// `requested`, with `inFlight` requests still arriving.
    ///
    /// - Parameter limit: Where the fetch must stop asking: the end of its gap, of the
    ///   resource, or the next cached byte; `nil` when none is known.
    func decide(start: Int64, requested: Int64, inFlight: Int, readers: [Reader], limit: Int64?) -> Decision {
        guard let furthest = readers.map(\.position).max() else { return .done }
        if let limit, requested >= limit { return .done }
        let lead = lead(consumed: max(0, furthest - start))
        var wanted: Int64 = 0
        var isBounded = true
        for reader in readers {
            if let end = reader.end {
                wanted = max(wanted, end)
            } else {
                isBounded = false
                wanted = max(wanted, reader.position + lead)
            }
        }
        if isBounded, requested >= wanted { return .done }
        guard inFlight < 2 else { return .wait }
        let end = min(wanted, limit ?? .max, requested + requestWindow)
        guard end > requested else { return .wait }
        let isStarving = furthest >= requested
        if !isBounded, !isStarving, end - requested < lead / 2 { return .wait }
        return .request(upTo: end)
    }
}
