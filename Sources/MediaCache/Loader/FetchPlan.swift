/// Decides, for one resource, which origin fetches run and which reader waits on which.
///
/// A pure state machine: the loader reports what happened (a reader needs a byte that is not
/// cached, a fetch progressed, a reader left) and performs the returned decisions. Readers
/// and fetches are numbered by the loader.
///
/// The rules:
/// - A reader needing offset `x` waits on a fetch whose next byte is at or before `x` and
///   that has asked the origin for `x` already, or is at most ``coalescingDistance`` behind it;
///   otherwise a new fetch starts at `x` and runs to the
///   end of the gap (the next cached byte, or the next fetch's start, or the end).
/// - A fetch nobody waits on any more stays in the plan while it drains what the origin
///   already sent, so that a reader coming back for those bytes waits on it rather than
///   fetching them again (it is revived); it leaves the plan when it ends, and stops when its
///   drain time is up first (``drainExpired(_:)``).
/// - When the origin ignores ranges (``isSequential``), there is one fetch, from byte 0, and
///   every reader waits on it; nobody waiting on it ends it at once.
struct FetchPlan: Equatable {
    typealias ReaderID = Int
    typealias FetchID = Int

    struct Fetch: Equatable {
        var start: Int64
        /// The next byte the fetch will deliver.
        var position: Int64
        /// One past the last byte wanted; `nil` means the end of the resource.
        var end: Int64?
        /// One past the last byte the fetch has asked the origin for so far.
        var requested: Int64 = 0
        /// Readers that wait on, or are being served by, this fetch.
        var readers: Set<ReaderID> = []
        /// Whether nobody waits on it any more and it only drains what it asked for.
        var isDraining = false

        func reaches(_ offset: Int64) -> Bool {
            offset >= position && end.map { offset < $0 } ?? true
        }
    }

    /// What a reader that needs bytes should do.
    enum Decision: Equatable {
        /// Wait for the running fetch.
        case wait(FetchID)
        /// Wait for the fetch that was draining: it serves readers again.
        case revive(FetchID)
        /// Start this new fetch, then wait for it.
        case start(FetchID, from: Int64, to: Int64?)
    }

    /// How far behind a reader's offset a running fetch may be for the reader to wait on it.
    let coalescingDistance: Int64
    /// Whether the origin ignores ranges, so bytes only come in order from byte 0.
    var isSequential = false
    private(set) var fetches: [FetchID: Fetch] = [:]
    /// The fetch each reader is attached to, if any.
    private(set) var attachments: [ReaderID: FetchID] = [:]
    private var nextFetchID = 0

    init(coalescingDistance: Int64) {
        self.coalescingDistance = coalescingDistance
    }

    /// Reader `reader` needs the byte at `offset`, which is not cached; `gapEnd` is the next
    /// cached byte after it, or the resource's length, or `nil` when neither is known.
    ///
    /// - Returns: The decision, and fetches nobody waits on any more because the reader left them.
    mutating func reader(_ reader: ReaderID, needs offset: Int64, gapEnd: Int64?) -> (Decision, orphaned: [FetchID]) {
        let running =
            fetches
            .filter {
                $0.value.reaches(offset)
                    && (isSequential || offset - $0.value.position <= coalescingDistance
                        || offset < $0.value.requested)
            }
            .max { $0.value.position < $1.value.position }
        if let (id, fetch) = running {
            let orphaned = attach(reader, to: id)
            return (fetch.isDraining ? .revive(id) : .wait(id), orphaned)
        }
        let id = nextFetchID
        nextFetchID += 1
        let start = isSequential ? 0 : offset
        var end = isSequential ? nil : gapEnd
        if !isSequential {
            for fetch in fetches.values where fetch.start > offset {
                end = min(end ?? fetch.start, fetch.start)
            }
        }
        fetches[id] = Fetch(start: start, position: start, end: end)
        return (.start(id, from: start, to: end), attach(reader, to: id))
    }

    /// Fetch `id` has delivered everything before `position`.
    ///
    /// - Returns: Whether the fetch is still in the plan.
    mutating func fetch(_ id: FetchID, reached position: Int64) -> Bool {
        guard var fetch = fetches[id] else { return false }
        fetch.position = max(position, fetch.position)
        fetches[id] = fetch
        return true
    }

    /// Fetch `id` asked the origin for everything before `end`.
    mutating func fetch(_ id: FetchID, requested end: Int64) {
        guard var fetch = fetches[id] else { return }
        fetch.requested = max(end, fetch.requested)
        fetches[id] = fetch
    }

    /// Fetch `id` finished, failed or was cancelled; its readers are no longer attached.
    mutating func fetchEnded(_ id: FetchID) {
        guard let fetch = fetches.removeValue(forKey: id) else { return }
        for reader in fetch.readers where attachments[reader] == id {
            attachments[reader] = nil
        }
    }

    /// The drain time of fetch `id` is up: whether it is still draining, and stops.
    func drainExpired(_ id: FetchID) -> Bool {
        fetches[id]?.isDraining ?? false
    }

    /// The readers attached to fetch `id`.
    func readers(of id: FetchID) -> Set<ReaderID> {
        fetches[id]?.readers ?? []
    }

    /// Reader `reader` left; returns the fetches nobody waits on any more.
    mutating func removeReader(_ reader: ReaderID) -> [FetchID] {
        detach(reader)
    }

    /// The origin turned out to ignore ranges: from now on one fetch serves everyone.
    mutating func becomeSequential() {
        isSequential = true
    }

    private mutating func attach(_ reader: ReaderID, to id: FetchID) -> [FetchID] {
        guard attachments[reader] != id else { return [] }
        let cancelled = detach(reader)
        attachments[reader] = id
        fetches[id]?.readers.insert(reader)
        fetches[id]?.isDraining = false
        return cancelled
    }

    private mutating func detach(_ reader: ReaderID) -> [FetchID] {
        guard let previous = attachments.removeValue(forKey: reader) else { return [] }
        fetches[previous]?.readers.remove(reader)
        guard let fetch = fetches[previous], fetch.readers.isEmpty else { return [] }
        if isSequential {
            fetches[previous] = nil
        } else {
            fetches[previous]?.isDraining = true
        }
        return [previous]
    }
}
