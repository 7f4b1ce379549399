import Foundation
import Logging
import MediaCache

/// The one way every part reads an HLS playlist (the proxy, the preloader, downloads and the
/// Apple adapter): read whole through the loader, no older than ``freshness`` allows (a
/// downloaded playlist is confirmed at every read, so that an unreachable origin is known at
/// once), parsed, and recorded as part of its asset in the store. A stored copy is the answer
/// when the origin cannot be reached; a downloaded multivariant playlist read so lists only
/// what was downloaded. When the store cannot keep the playlist (a full disk), it comes from
/// the origin uncached.
///
/// ```swift
/// let playlists = PlaylistSource(store: store, loader: loader)
/// let read = try await playlists.read(masterURL)
/// let text = read.rewritten { proxy.path(for: $0) }   // every URI a player follows, routed
/// ```
public struct PlaylistSource: Sendable {
    /// The store assets are recorded in: the loader's.
    public let store: MediaStore
    /// The loader playlists are read through.
    public let loader: MediaLoader
    /// How long a stored playlist is served before the origin is asked again.
    public let freshness: PlaylistFreshness

    /// A source over `loader`, which reads through `store`.
    public init(store: MediaStore, loader: MediaLoader, freshness: PlaylistFreshness = PlaylistFreshness()) {
        precondition(store === loader.store, "a playlist source records assets in its loader's store")
        self.store = store
        self.loader = loader
        self.freshness = freshness
    }

    /// Playlist `url`, read for `purpose`.
    ///
    /// - Throws: `LoaderError` when it cannot be read (an origin failure with no stored
    ///   copy, `tooLarge(url:limit:)` past ``Playlist/maximumSize``);
    ///   ``LiveOutageError`` when it is live and its origin has failed for longer than
    ///   ``PlaylistFreshness/maximumStaleAge(of:)``; ``PlaylistError`` when its text is no
    ///   playlist.
    public func read(_ url: URL, purpose: ReadPurpose = .playback) async throws -> SourcedPlaylist {
        if Self.isBlockingReload(url) {
            // Asked for a part the player knows is coming: only the origin can answer it.
            return try await uncached(url, storeFailure: nil)
        }
        let isDownloaded = (try? store.isDownloaded(store.key(for: url))) ?? false
        let content: RevalidatedContent
        do {
            content = try await loader.revalidatedContent(of: url, maximumLength: Playlist.maximumSize, purpose: purpose) {
                [freshness] body in isDownloaded ? .zero : freshness.maximumAge(of: body)
            }
        } catch {
            guard let failure = error.store else { throw error }
            return try await uncached(url, storeFailure: failure)
        }
        if let failure = content.staleReason, !isDownloaded, let age = content.age,
            let limit = freshness.maximumStaleAge(of: content.body), age > limit
        {
            throw LiveOutageError(url: url, age: age, failure: failure)
        }
        let playlist = try Playlist(parsing: content.body)
        let base = content.record.contentInfo.finalURL ?? url
        do {
            try store.recordAsset(of: playlist, at: url, base: base, generation: content.record.generation)
        } catch {
            store.configuration.logger.warning(
                "playlist not recorded as part of an asset", metadata: ["url": "\(url)", "error": "\(error)"])
        }
        var served = playlist
        if isDownloaded, content.isStale, playlist.isMultivariant {
            served = PlaylistRestriction.restricted(playlist, base: base) { [store] in
                (try? store.isDownloaded(store.key(for: $0))) ?? false
            }
        }
        return SourcedPlaylist(
            playlist: served, base: base, info: content.record.contentInfo, age: content.age,
            isStale: content.isStale, chunk: content.chunk, storeFailure: nil)
    }
}

extension PlaylistSource {
    /// Playlist `url` from the origin, stored nowhere; `storeFailure` is why, when the store
    /// could not keep it.
    private func uncached(_ url: URL, storeFailure: MediaStoreError?) async throws -> SourcedPlaylist {
        let (body, info) = try await loader.uncachedContent(of: url, maximumLength: Playlist.maximumSize)
        return SourcedPlaylist(
            playlist: try Playlist(parsing: body), base: info.finalURL ?? url, info: info, age: nil,
            isStale: false, chunk: ByteChunk(offset: 0, bytes: body, source: .network), storeFailure: storeFailure)
    }
}

extension PlaylistSource {
    /// The query parameters of an LL-HLS delivery directive (RFC 8216bis §6.2.5.2), which a
    /// cache key never drops (`droppingQueryItems(_:)`).
    public static let deliveryDirectives: Set<String> = ["_HLS_msn", "_HLS_part", "_HLS_skip"]

    /// Whether `url` asks for a playlist by a delivery directive: a blocking reload, which the
    /// origin holds until the part it names exists, or a delta update. Such a playlist is
    /// always the origin's, read uncached and never answered from the store, which holds an
    /// older one.
    public static func isBlockingReload(_ url: URL) -> Bool {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return false }
        return items.contains { deliveryDirectives.contains($0.name) }
    }
}

/// A playlist as ``PlaylistSource`` read it.
public struct SourcedPlaylist: Sendable {
    /// The playlist, restricted to what was downloaded when read offline.
    public var playlist: Playlist
    /// The URL its URIs resolve against: where the origin answered from, after redirects.
    public var base: URL
    /// What the origin said of it.
    public var info: ContentInfo
    /// How long ago the origin last confirmed it; `nil` when unknown or just fetched uncached.
    public var age: Duration?
    /// Whether it is a stored copy the origin could not confirm.
    public var isStale: Bool
    /// Its bytes as read, with where they came from.
    public var chunk: ByteChunk
    /// Why the store could not keep it, when it came from the origin uncached.
    public var storeFailure: MediaStoreError?

    /// Its text with every URI a player follows resolved against ``base`` and replaced by what
    /// `route` makes of it (unchanged where `route` gives `nil`).
    public func rewritten(route: (URL) -> String?) -> String {
        PlaylistRewriter.rewritten(playlist, base: base, route: route).text
    }
}
