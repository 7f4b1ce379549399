/// When fetches that wait for their readers go on, as a value-type state machine beside
/// ``FetchPlan``: a sequential fetch pauses while it is ``MediaLoader/Configuration/readahead``
/// ahead of its readers; a ranged fetch waits for demand (``RequestPacing/Decision/wait(until:)``)
/// until a reader reaches its threshold, or any bounded reader moves, or readers join, leave or
/// come back. It returns which fetches to wake; ``ResourceLoader`` resumes them.
struct FetchWaits {
    typealias FetchID = FetchPlan.FetchID

    /// Why a fetch waits.
    enum Kind: Equatable {
        /// A sequential fetch too far ahead of its readers.
        case paused
        /// A ranged fetch waiting for its readers to need more.
        case demand
    }

    /// A reader as the waits see it.
    struct Reader: Equatable {
        var position: Int64
        /// `nil` for an open-ended reader.
        var end: Int64?
    }

    /// Counts readers joining, leaving and coming back, so that a fetch that decided to wait
    /// sees a change that came before it started waiting.
    private(set) var epoch = 0
    /// Where an open-ended reader makes each waiting ranged fetch ask for more (`Int64.max`
    /// when only a request's end can); without one, any read does.
    private(set) var thresholds: [FetchID: Int64] = [:]
    private(set) var waiting: [FetchID: Kind] = [:]

    /// Ranged fetch `id` decided what to do next: with `.wait`, it waits for its threshold.
    mutating func decided(_ id: FetchID, _ decision: RequestPacing.Decision?) {
        thresholds[id] = nil
        if case .wait(let until)? = decision { thresholds[id] = until ?? .max }
    }

    /// Whether ranged fetch `id`, which decided at `epoch` `demand`, is to wait now, its
    /// readers being `readers`: not when readers moved since, nor when an open-ended one is at
    /// its threshold already.
    func mayWaitForDemand(_ id: FetchID, after demand: Int, readers: [Reader]) -> Bool {
        guard demand == epoch else { return false }
        guard let threshold = thresholds[id] else { return true }
        return !readers.contains { $0.end == nil && $0.position >= threshold }
    }

    mutating func wait(_ id: FetchID, _ kind: Kind) {
        waiting[id] = kind
    }

    /// `reader` consumed a chunk: every paused fetch checks whether its readers caught up, and
    /// each fetch waiting for demand that the reader may bring (see ``brings(_:demandOf:)``) whether to
    /// ask for more. Waking a ranged fetch on every chunk would cost a decision per 64 KiB.
    mutating func readerAdvanced(_ reader: Reader) -> [FetchID] {
        let woken = waiting.filter { id, kind in kind == .paused || brings(reader, demandOf: id) }.keys.sorted()
        for id in woken { waiting[id] = nil }
        return woken
    }

    /// Wakes ranged fetch `id` when it waits for demand that `reader` may bring.
    mutating func wake(_ id: FetchID, for reader: Reader) -> Bool {
        guard waiting[id] == .demand, brings(reader, demandOf: id) else { return false }
        waiting[id] = nil
        return true
    }

    /// Readers joined, left or came back: every waiting fetch checks again.
    mutating func readersMoved() -> [FetchID] {
        epoch += 1
        defer { waiting = [:] }
        return waiting.keys.sorted()
    }

    /// Fetch `id` stops waiting (its task was cancelled, it was released, or it ended);
    /// whether it was waiting.
    mutating func stop(_ id: FetchID) -> Bool {
        waiting.removeValue(forKey: id) != nil
    }

    /// Fetch `id` ended; whether it was waiting.
    mutating func ended(_ id: FetchID) -> Bool {
        thresholds[id] = nil
        return stop(id)
    }

    /// Whether `reader` may bring demand to ranged fetch `id`: any bounded reader, or an
    /// open-ended one at the fetch's threshold.
    private func brings(_ reader: Reader, demandOf id: FetchID) -> Bool {
        reader.end != nil || reader.position >= thresholds[id] ?? .min
    }
}
