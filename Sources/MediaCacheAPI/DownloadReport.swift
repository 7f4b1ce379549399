import Foundation
import MediaCache

/// A download in `GET /api/downloads` and `mediacache downloads --json`.
public struct DownloadReport: Hashable, Sendable, Codable {
    /// A rendition of the selection.
    public struct Rendition: Hashable, Sendable, Codable {
        /// Its language, when the playlist names one.
        public var language: String?
        /// Its name.
        public var name: String
    }

    /// The variant of the selection.
    public struct Variant: Hashable, Sendable, Codable {
        /// Its `BANDWIDTH`.
        public var bandwidth: Int?
        /// Its `RESOLUTION`.
        public var resolution: String?
    }

    /// What was asked for and what it resolved to.
    public struct Selection: Hashable, Sendable, Codable {
        /// The variant asked for: `highest`, `lowest`, bits per second or `WxH`.
        public var asked: String
        /// The variant chosen; `nil` for a file, or before the playlist was read.
        public var variant: Variant?
        /// The audio renditions chosen.
        public var audio: [Rendition]
        /// The subtitle renditions chosen.
        public var subtitles: [Rendition]
    }

    public var id: String
    public var url: String
    public var title: String
    /// `queued`, `downloading`, `paused`, `completed` or `failed`.
    public var state: String
    /// Why it failed.
    public var error: String?
    public var bytesOnDisk: Int64
    public var expectedBytes: Int64?
    public var expectedIsEstimate: Bool
    public var segmentsDone: Int
    public var segmentCount: Int
    public var loadedSeconds: Double
    public var durationSeconds: Double
    /// Each selected playlist's time ranges stored against the range expected.
    public var renditions: [RenditionProgress]
    public var selection: Selection
    public var playableOffline: Bool
    /// Whether the URL is a file rather than an HLS playlist.
    public var isFile: Bool

    /// The report of `download`.
    public init(_ download: Download) {
        id = download.id
        url = download.url.absoluteString
        title = download.title
        state = download.state.name
        error = download.state.error
        bytesOnDisk = download.bytesDone
        expectedBytes = download.bytesExpected
        expectedIsEstimate = download.expectedIsEstimate
        segmentsDone = download.segmentsDone
        segmentCount = download.segmentCount
        loadedSeconds = download.loadedSeconds
        durationSeconds = download.durationSeconds
        renditions = download.renditions
        playableOffline = download.isPlayableOffline
        isFile = download.isFile
        let playlists = download.resolved?.playlists ?? []
        let renditions = { (kind: AssetPlaylistKind) in
            playlists.filter { $0.kind == kind }.map { Rendition(language: $0.language, name: $0.name) }
        }
        selection = Selection(
            asked: download.selection.variant.description,
            variant: download.resolved?.variant.map { Variant(bandwidth: $0.bandwidth, resolution: $0.resolution) },
            audio: renditions(.audio), subtitles: renditions(.subtitles))
    }
}

/// The body of `POST /api/downloads`: `{"url": "…", "title": "…", "variant": "highest",
/// "audio": "default", "subtitles": "none"}`; everything but `url` may be left out.
public struct DownloadRequest: Hashable, Sendable, Codable {
    public var url: String
    public var title: String?
    /// `highest` (default), `lowest`, bits per second, or `WxH`.
    public var variant: String?
    /// `default` (default), `all`, `none`, or languages separated by commas.
    public var audio: String?
    /// `none` (default), `default`, `all`, or languages separated by commas.
    public var subtitles: String?

    /// Creates a request.
    public init(url: String, title: String? = nil, variant: String? = nil, audio: String? = nil, subtitles: String? = nil) {
        self.url = url
        self.title = title
        self.variant = variant
        self.audio = audio
        self.subtitles = subtitles
    }

    /// The selection the request asks for.
    ///
    /// - Throws: `InputError` naming the field that is not one of the accepted forms.
    public func checkedSelection() throws(InputError) -> DownloadSelection {
        var selection = DownloadSelection()
        if let variant {
            guard let parsed = DownloadSelection.Variant(variant) else {
                throw InputError(field: "variant", value: variant, accepted: "highest, lowest, bits per second or WxH")
            }
            selection.variant = parsed
        }
        for (field, text) in [("audio", audio), ("subtitles", subtitles)] {
            guard let text else { continue }
            guard let parsed = DownloadSelection.Renditions(text) else {
                throw InputError(field: field, value: text, accepted: "default, all, none or languages such as en,de")
            }
            if field == "audio" { selection.audio = parsed } else { selection.subtitles = parsed }
        }
        return selection
    }
}
