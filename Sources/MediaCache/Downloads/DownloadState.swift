/// Where a download is in its life, and the only moves between states: a value type, so that
/// every rule is tested without I/O.
///
/// ```text
/// queued ──start──► downloading ──finish──► completed ──extend──► queued
///   ▲  │                 │ │
///   │  └────pause──┐     │ └──fail──► failed ──resume──► queued
///   │              ▼     ▼
///   └──resume── paused ◄─pause
/// ```
/// A process that ends while a download runs leaves it `downloading`; ``relaunched()`` puts it
/// back in the queue, so that it resumes by itself.
public enum DownloadState: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Waiting for a free slot.
    case queued
    /// Fetching.
    case downloading
    /// Stopped by the user; resumes only when asked.
    case paused
    /// Every selected playlist, key, init section and segment is stored in full.
    case completed
    /// Stopped by an error, with its reason (the segment that failed and why).
    case failed(String)

    /// The state's name, as the API and the index spell it.
    public var name: String {
        switch self {
        case .queued: "queued"
        case .downloading: "downloading"
        case .paused: "paused"
        case .completed: "completed"
        case .failed: "failed"
        }
    }

    /// The error of a failed download.
    public var error: String? {
        if case .failed(let reason) = self { return reason }
        return nil
    }

    public var description: String { error.map { "failed: \($0)" } ?? name }

    /// Whether the download waits to run or runs: `queued` or `downloading`.
    public var isActive: Bool { self == .queued || self == .downloading }

    /// The state named `name` (with `error` for `failed`), as read back from the index.
    public init?(name: String, error: String?) {
        switch name {
        case "queued": self = .queued
        case "downloading": self = .downloading
        case "paused": self = .paused
        case "completed": self = .completed
        case "failed": self = .failed(error ?? "unknown error")
        default: return nil
        }
    }

    /// A move that is not allowed from the current state.
    public struct InvalidMove: Error, Hashable, CustomStringConvertible {
        /// The move asked for.
        public var move: String
        /// The state it was asked in.
        public var state: DownloadState

        public var description: String { "cannot \(move) a download that is \(state)" }
    }

    /// `queued` → `downloading`.
    public func started() throws(InvalidMove) -> DownloadState {
        guard self == .queued else { throw InvalidMove(move: "start", state: self) }
        return .downloading
    }

    /// `queued` or `downloading` → `paused`; a paused download stays paused.
    public func paused() throws(InvalidMove) -> DownloadState {
        switch self {
        case .queued, .downloading, .paused: return .paused
        case .completed, .failed: throw InvalidMove(move: "pause", state: self)
        }
    }

    /// `paused` or `failed` → `queued` (a failed download resumes where it stopped); a queued or
    /// running download stays as it is.
    public func resumed() throws(InvalidMove) -> DownloadState {
        switch self {
        case .paused, .failed: return .queued
        case .queued, .downloading: return self
        case .completed: throw InvalidMove(move: "resume", state: self)
        }
    }

    /// `downloading` → `completed`.
    public func finished() throws(InvalidMove) -> DownloadState {
        guard self == .downloading else { throw InvalidMove(move: "complete", state: self) }
        return .completed
    }

    /// `downloading` → `failed`.
    public func failed(_ reason: String) throws(InvalidMove) -> DownloadState {
        guard self == .downloading else { throw InvalidMove(move: "fail", state: self) }
        return .failed(reason)
    }

    /// New selections were added: a completed or failed download is queued again for what is
    /// missing; a paused one stays paused; a queued or running one picks them up.
    public func extended() -> DownloadState {
        switch self {
        case .completed, .failed: .queued
        case .queued, .downloading, .paused: self
        }
    }

    /// The state after the process that ran the download ended and a new one started:
    /// `downloading` becomes `queued`, so that it resumes by itself; every other state stays.
    public func relaunched() -> DownloadState {
        self == .downloading ? .queued : self
    }
}
