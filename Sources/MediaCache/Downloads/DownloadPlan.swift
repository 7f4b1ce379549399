import Foundation

/// Everything one download fetches: its playlists, then each unit (a key, an init section, a
/// segment, or byte ranges of one file merged) with the time ranges of each playlist it
/// completes. A ``DownloadPlanner`` makes one for a presentation; a file's is made by the
/// ``DownloadManager`` itself.
public struct DownloadPlan: Sendable {
    /// Seconds of one selected playlist that a unit completes.
    public struct Span: Sendable {
        public var playlist: URL
        public var time: Range<Double>

        public init(playlist: URL, time: Range<Double>) {
            self.playlist = playlist
            self.time = time
        }
    }

    /// One resource to have stored, in part or whole.
    public struct Unit: Sendable {
        public var target: PreloadTarget
        /// What it completes of the selected playlists.
        public var spans: [Span]
        /// Whether it is a segment (or merged byte ranges of segments).
        public var isSegment: Bool

        public init(target: PreloadTarget, spans: [Span], isSegment: Bool) {
            self.target = target
            self.spans = spans
            self.isSegment = isSegment
        }
    }

    /// The playlists read to plan, stored already.
    public var playlists: [URL]
    public var units: [Unit]
    /// Seconds of the first selected playlist.
    public var duration: Double
    /// Each selected playlist's progress, with nothing loaded yet.
    public var renditions: [RenditionProgress] = []
    /// For an MP4 or MP3 file, its time index: the seconds stored are those that play.
    var timeIndex: (any MediaTimeIndex)?
    /// `BANDWIDTH` × duration of the variant, where the playlist names one.
    public var estimatedBytes: Int64?

    public init(playlists: [URL], units: [Unit], duration: Double, estimatedBytes: Int64?) {
        self.playlists = playlists
        self.units = units
        self.duration = duration
        self.estimatedBytes = estimatedBytes
    }

    var segmentCount: Int { units.filter(\.isSegment).count }
}

/// Plans downloads of URLs that are more than one resource, such as HLS presentations
/// (`MediaCacheHLS`'s `HLSDownloadPlanner`). A ``DownloadManager`` asks its planners in order;
/// the first plan wins, and without one the URL is downloaded as one file.
///
/// ```swift
/// /// Downloads an episode with its chapter images, listed in a JSON beside it.
/// struct EpisodePlanner: DownloadPlanner {
///     func plan(_ download: Download, loader: MediaLoader) async throws -> (DownloadPlan, ResolvedSelection)? {
///         guard download.url.pathExtension == "m4a" else { return nil }
///         let images = try await chapterImages(of: download.url, loader: loader)   // read with .download
///         let units = ([download.url] + images).map {
///             DownloadPlan.Unit(target: PreloadTarget(url: $0), spans: [], isSegment: false)
///         }
///         let plan = DownloadPlan(playlists: [], units: units, duration: 0, estimatedBytes: nil)
///         return (plan, ResolvedSelection(playlists: []))
///     }
///
///     func check(_ selection: DownloadSelection, of url: URL, loader: MediaLoader) async throws -> Bool {
///         url.pathExtension == "m4a"   // an episode has no variants or renditions to refuse
///     }
/// }
/// ```
public protocol DownloadPlanner: Sendable {
    /// The plan for `download` and the selection it resolved to (added to what was resolved
    /// before), or `nil` to leave the URL to the next planner.
    ///
    /// - Parameters:
    ///   - download: The download, with its selection and what was resolved before.
    ///   - loader: The loader to read what planning needs through (with
    ///     ``ReadPurpose/download``), so that it is cached too.
    func plan(_ download: Download, loader: MediaLoader) async throws -> (DownloadPlan, ResolvedSelection)?

    /// Whether this planner plans `url`, having refused a `selection` that names what the
    /// presentation does not have (``DownloadSelectionError``): a download is checked so
    /// before it is queued.
    func check(_ selection: DownloadSelection, of url: URL, loader: MediaLoader) async throws -> Bool
}
