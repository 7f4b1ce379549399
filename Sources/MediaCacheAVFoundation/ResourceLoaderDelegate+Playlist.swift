#if canImport(AVFoundation)
import AVFoundation
#else
import AVFoundationShim
#endif
import Foundation
import MediaCache
import MediaCacheHLS

extension ResourceLoaderDelegate {
    /// Serves an HLS playlist request: reads the playlist in process, from the cache's
    /// ``PlaylistSource`` (as the proxy reads it), and answers with every URI absolute on the
    /// embedded proxy, which it waits for without blocking anyone, so that the player fetches
    /// variants, keys and segments from the proxy over http (AVPlayer sends no segment
    /// requests to a resource loader).
    func servePlaylist(_ handle: RequestHandle) async {
        let start = Date()
        do {
            let proxy = try await cache.proxyURLs()
            let read = try await cache.engine().playlists.read(handle.url)
            let playlist = Data(read.rewritten { proxy.url(for: $0)?.absoluteString }.utf8)
            let refusal = await onQueue { () -> PlaybackCacheError? in
                // A playlist found by its first line may come as text/plain; the player is told
                // what it is.
                if let refusal = self.describe(
                    mimeType: Self.playlistType, length: Int64(playlist.count), rangesSupported: false,
                    entirelyAvailable: true, to: handle)
                {
                    return refusal
                }
                guard handle.isOpen else { return nil }
                if let data = handle.request.dataRequest {
                    let from = Int(min(max(data.currentOffset, 0), Int64(playlist.count)))
                    data.respond(with: playlist.subdata(in: from..<playlist.count))
                }
                handle.finish()
                return nil
            }
            if let refusal { throw refusal }
            let count = Int64(read.chunk.bytes.count)
            log.served(
                handle.url, since: start, fromCache: read.chunk.source == .cache ? count : 0,
                fromNetwork: read.chunk.source == .network ? count : 0)
        } catch {
            await fail(handle, error, since: start)
        }
    }

    /// The media type a playlist is described with.
    private static let playlistType = "application/vnd.apple.mpegurl"
}
