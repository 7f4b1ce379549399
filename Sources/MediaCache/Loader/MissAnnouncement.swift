/// The record a miss's fetch made from the origin's answer, handed to the resource's readers
/// before the store holds the resource (the fetch creates it next, outside the loader), as a
/// value-type state machine: at most one is under way, and it is over once its fetch created
/// the resource or ended, or a later answer recorded another version first. The loader acts
/// on what it returns: readers handed a version that is over fail.
struct MissAnnouncement {
    typealias FetchID = FetchPlan.FetchID

    /// The fetch whose announcement is under way, and its record.
    private(set) var current: (fetch: FetchID, record: ResourceRecord)?

    /// The record under way, which readers are handed until the store holds one.
    var record: ResourceRecord? { current?.record }

    /// Fetch `id` announces `record`; `false` when another announcement is under way (the
    /// fetch then records its answer at once, as for a known resource).
    mutating func announce(_ record: ResourceRecord, by id: FetchID) -> Bool {
        guard current == nil else { return false }
        current = (id, record)
        return true
    }

    /// Whether fetch `id`'s announcement is the one under way: its first chunk is kept for
    /// readers only then, since a generation number of a version that is over may be
    /// another version's now.
    func isUnderWay(by id: FetchID) -> Bool {
        current?.fetch == id
    }

    /// Fetch `id` created the resource it announced, at `generation`; the store's record is
    /// the truth from now on. Returns the generation readers must move to when it is not the
    /// announced one: the resource was created meanwhile from another answer.
    mutating func created(_ generation: Generation, by id: FetchID) -> Generation? {
        guard let (fetch, record) = current, fetch == id else { return nil }
        current = nil
        return generation == record.generation ? nil : generation
    }

    /// Fetch `id` found the store holding another version than the one it announced; returns
    /// the record readers were handed, whose version is over.
    mutating func superseded(by id: FetchID) -> ResourceRecord? {
        guard let (fetch, record) = current, fetch == id else { return nil }
        current = nil
        return record
    }

    /// The store recorded `info` for the resource; when it names another version than the
    /// announcement, that came later and wins: returns the announcing fetch, which stops, and
    /// the record readers were handed.
    mutating func recorded(_ info: ContentInfo) -> (fetch: FetchID, record: ResourceRecord)? {
        guard let announced = current, announced.record.contentInfo.isDifferentVersion(from: info) else { return nil }
        current = nil
        return announced
    }

    /// Fetch `id` ended: its announcement, if under way, is over.
    mutating func ended(_ id: FetchID) {
        if current?.fetch == id { current = nil }
    }
}
