import Foundation
import MediaCache

extension MediaLoader {
    /// Playlist `url` read whole, as fresh as `freshness` asks, parsed, and recorded as part of
    /// its asset; with the URL its URIs resolve against (where the origin answered from).
    ///
    /// What the HLS preloader and the download manager read playlists with.
    func assetPlaylist(at url: URL, purpose: ReadPurpose, freshness: PlaylistFreshness) async throws -> (playlist: Playlist, base: URL) {
        let content = try await revalidatedContent(of: url, maximumLength: Playlist.maximumSize, purpose: purpose,
                                                   maximumAge: freshness.maximumAge(of:))
        let playlist = try Playlist(parsing: content.body)
        let base = content.record.contentInfo.finalURL ?? url
        try store.recordAsset(of: playlist, at: url, base: base, generation: content.record.generation)
        return (playlist, base)
    }
}
