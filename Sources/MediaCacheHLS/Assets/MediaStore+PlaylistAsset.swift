import Foundation
import MediaCache

extension MediaStore {
    /// Records what `playlist` tells of its asset: a multivariant playlist names the asset and
    /// its media playlists; a media playlist, its segments, keys and init sections (once per
    /// content generation).
    ///
    /// - Parameters:
    ///   - playlist: The playlist as parsed.
    ///   - url: The URL the playlist is stored under (the one players ask for).
    ///   - base: The URL its URIs resolve against (where it was answered from).
    ///   - generation: The stored playlist's generation.
    /// - Throws: ``PlaylistError`` when the playlist is not a valid multivariant or media
    ///   playlist; `MediaStoreError` when the index cannot record it.
    public func recordAsset(of playlist: Playlist, at url: URL, base: URL, generation: Generation) throws {
        if playlist.isMultivariant {
            try recordAsset(url, playlists: MultivariantPlaylist(playlist).assetPlaylists(base: base))
            return
        }
        guard try !isPlaylistRecorded(url, generation: generation) else { return }
        try recordPlaylist(url, generation: generation, members: MediaPlaylist(playlist).assetMembers(base: base))
    }
}
