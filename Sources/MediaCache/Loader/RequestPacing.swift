/// Decides when a resource's ranged fetches send their next origin request, and how far they
/// ask; learns from slow round trips.
///
/// A value type, its decisions a function of what the fetch's readers have shown: what one request asks for is what
/// the origin may send whatever happens next, because socket buffers on both sides hold
/// megabytes that a cancel cannot call back. So an open-ended fetch asks only a *lead* beyond
/// its furthest reader: ``MediaLoader/Configuration/initialReadahead`` at first, growing with the
/// bytes its readers consumed (a sixteenth of them) up to ``MediaLoader/Configuration/readahead``,
/// and doubling each time a reader stood waiting on a slow origin round trip (see
/// ``requestAnswered(after:from:readers:)``). The next request goes out once the reader is within a quarter of a
/// lead of the bytes asked for, while the current one is still arriving, and tops them up to a
/// full lead: each request asks for three quarters of a lead, so a long read costs few
/// requests, and on a link whose round trip the lead covers the reader never waits. A reader
/// that will take everything it asked for (a client that asked for a whole response) gets the
/// largest lead as soon as it has taken its first bytes. A bounded read asks for exactly its
/// bytes.
struct RequestPacing: Equatable {
    /// The first lead of an open-ended fetch.
    let initialLead: Int64
    /// The largest lead.
    let maximumLead: Int64
    /// The most one request asks for.
    let requestWindow: Int64
    /// How long an answer may take before an open-ended reader waiting for it doubles the lead.
    let slowRoundTrip: Duration
    /// The smallest lead of the resource's open-ended fetches, doubled by each slow round trip
    /// a reader waited on.
    private(set) var learnedLead: Int64 = 0

    init(initialLead: Int64, maximumLead: Int64, requestWindow: Int64, slowRoundTrip: Duration = .milliseconds(10)) {
        self.initialLead = initialLead
        self.maximumLead = maximumLead
        self.requestWindow = requestWindow
        self.slowRoundTrip = slowRoundTrip
    }

    /// A reader of the fetch, as the pacing sees it.
    struct Reader: Equatable {
        /// The next byte the reader will consume.
        var position: Int64
        /// One past its last byte; `nil` reads to the end.
        var end: Int64?
        /// Whether it will take every byte it asked for (``ByteRequest/takesAll``): an
        /// open-ended one gets the largest lead once it has taken its first bytes.
        var takesAll = false
    }

    /// What the fetch should do now.
    enum Decision: Equatable {
        /// Ask the origin for the bytes from what was asked so far to this offset.
        case request(upTo: Int64)
        /// Ask for nothing yet; look again once an open-ended reader reaches `until`, or, when
        /// it is `nil` or a reader joins, leaves or reads a bounded range, when that happens.
        case wait(until: Int64?)
        /// Ask for nothing more: no reader needs more, or the gap is asked for whole.
        case done
    }

    /// The lead of an open-ended fetch whose readers consumed `consumed` bytes of it, at least
    /// ``learnedLead``: what round trips taught.
    func lead(consumed: Int64) -> Int64 {
        min(maximumLead, max(initialLead, learnedLead, consumed / 16))
    }

    /// A request for the bytes from `offset` was answered after `wait`, its fetch's readers
    /// being `readers`. When that was slow (``slowRoundTrip``) and an open-ended reader stood
    /// waiting for those bytes, the lead did not cover the round trip, and the learned lead
    /// doubles: on a slow link it reaches the link's bandwidth-delay product within a few round
    /// trips, as TCP's slow start does.
    mutating func requestAnswered(after wait: Duration, from offset: Int64, readers: [Reader]) {
        guard wait >= slowRoundTrip, readers.contains(where: { $0.end == nil && $0.position >= offset }) else { return }
        learnedLead = min(maximumLead, max(initialLead, learnedLead) * 2)
    }

    /// The least an open-ended request asks for once the fetch is under way: three quarters of
    /// `lead`, sent when the reader is a quarter of a lead from the end of what was asked.
    func refill(_ lead: Int64) -> Int64 {
        lead - lead / 4
    }

    /// The next step of a fetch that started at `start` and has asked for everything before
    /// `requested`, with `inFlight` requests still arriving.
    ///
    /// - Parameters:
    ///   - limit: Where the fetch must stop asking: the end of its gap, of the resource, or the
    ///     next cached byte; `nil` when none is known.
    func decide(start: Int64, requested: Int64, inFlight: Int, readers: [Reader], limit: Int64?) -> Decision {
        guard let furthest = readers.map(\.position).max() else { return .done }
        if let limit, requested >= limit { return .done }
        // A reader that takes all gets the largest lead once it has taken its first bytes;
        // until then the lead stays small, so that those bytes are not queued behind megabytes
        // arriving at once.
        let takesAll = furthest > start && readers.contains { $0.end == nil && $0.takesAll }
        let lead = takesAll ? maximumLead : lead(consumed: max(0, furthest - start))
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
        guard inFlight < 2 else { return .wait(until: nil) }
        let room = min(limit ?? .max, requested + requestWindow)
        let end = min(wanted, room)
        let isStarving = furthest >= requested
        let refill = refill(lead)
        if end > requested, isBounded || isStarving || end - requested >= refill {
            return .request(upTo: end)
        }
        // Open-ended readers need more once the furthest is within a quarter of a lead of what
        // was asked for; where the limit leaves less than a refill to ask for, once it gets there.
        return .wait(until: room - requested >= refill ? requested - (lead - refill) : requested)
    }
}
