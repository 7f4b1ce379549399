import Foundation

/// One offline download as ``DownloadManager`` reports it: what it fetches, where it is, and
/// its progress in bytes, segments and seconds.
///
/// ```swift
/// for await download in await downloads.updates() where download.id == film.id {
///     print(download.state, download.bytesDone, "of", download.bytesExpected ?? 0)
/// }
/// ```
public struct Download: Hashable, Sendable, Codable, Identifiable {
    /// A stable identifier.
    public var id: String
    /// The URL downloaded: a playlist (multivariant or media) or a file.
    public var url: URL
    /// A title for people.
    public var title: String
    /// Where the download is.
    public var state: DownloadState
    /// What was asked for.
    public var selection: DownloadSelection
    /// What the selection resolved to, once the playlist was read; `nil` for a file.
    public var resolved: ResolvedSelection?
    /// Whether the URL is a file rather than an HLS playlist, once known.
    public var isFile: Bool
    /// Bytes of it stored.
    public var bytesDone: Int64
    /// Bytes expected in all, once planned.
    public var bytesExpected: Int64?
    /// Whether ``bytesExpected`` is estimated (from `BANDWIDTH` × duration) rather than known.
    public var expectedIsEstimate: Bool
    /// Segments (or, for a file, the file) stored, and their number.
    public var segmentsDone: Int
    /// See ``segmentsDone``.
    public var segmentCount: Int
    /// Seconds of the selected variant stored, from its start.
    public var loadedSeconds: Double
    /// Seconds the selected variant lasts.
    public var durationSeconds: Double
    /// Each selected playlist with the time ranges of it stored; empty for a file, or before
    /// the playlist was read.
    public var renditions: [RenditionProgress] = []

    /// Whether it plays without the network: every selected resource is stored.
    public var isPlayableOffline: Bool { state == .completed }

    /// The share of bytes stored, from 0 to 1, once planned.
    public var fractionDone: Double? {
        guard let bytesExpected, bytesExpected > 0 else { return state == .completed ? 1 : nil }
        return min(Double(bytesDone) / Double(bytesExpected), 1)
    }
}

extension Download {
    /// What the index keeps beyond its columns.
    struct Document: Codable {
        var selection: DownloadSelection
        var resolved: ResolvedSelection?
        var isFile: Bool
        var segmentsDone: Int
        var segmentCount: Int
        var loadedSeconds: Double
        var durationSeconds: Double
        var renditions: [RenditionProgress]?
    }

    var document: Document {
        Document(
            selection: selection, resolved: resolved, isFile: isFile, segmentsDone: segmentsDone,
            segmentCount: segmentCount, loadedSeconds: loadedSeconds, durationSeconds: durationSeconds,
            renditions: renditions)
    }

    /// Records that `spans` are stored: their time ranges join each rendition's, and the
    /// first's seconds count as loaded.
    mutating func load(_ spans: [DownloadPlan.Span]) {
        for span in spans {
            guard let position = renditions.firstIndex(where: { $0.url == span.playlist }) else { continue }
            renditions[position].load(span.time)
        }
        if let first = renditions.first { loadedSeconds = first.loadedSeconds }
    }
}
