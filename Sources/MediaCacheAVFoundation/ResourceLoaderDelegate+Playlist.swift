#if canImport(AVFoundation)
import AVFoundation
#else
import AVFoundationShim
#endif
import Foundation
import MediaCache
import MediaCacheHLS

extension ResourceLoaderDelegate {
    /// Serves an HLS playlist request: waits, without blocking anyone, for the embedded proxy,
    /// fetches the playlist through it (rewritten there) and answers with every URI absolute on
    /// the proxy, so that the player fetches variants, keys and segments from the proxy over
    /// http (AVPlayer sends no segment requests to a resource loader).
    func servePlaylist(_ handle: RequestHandle) async {
        let start = Date()
        do {
            let proxied = try await cache.proxyURL(for: handle.url)
            let body = try await fetch(proxied, for: handle.url)
            // The proxy routes every URI through itself as a path from its root; a player would
            // resolve such a path against the caching-scheme URL it asked for, so each is made
            // absolute on the proxy.
            let absolute = PlaylistRewriter.rewritten(try Playlist(parsing: body), base: proxied) { $0.absoluteString }
            let playlist = Data(absolute.text.utf8)
            let refusal = await onQueue { () -> MediaCacheError? in
                // A playlist found by its first line may come as text/plain; the player is told
                // what it is.
                if let refusal = self.describe(mimeType: Self.playlistType, length: Int64(playlist.count), rangesSupported: false,
                                               entirelyAvailable: true, to: handle) {
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
            log.served(handle.url, since: start, fromCache: 0, fromNetwork: Int64(playlist.count))
        } catch {
            await fail(handle, error, since: start)
        }
    }

    /// The media type a playlist is described with.
    private static let playlistType = "application/vnd.apple.mpegurl"

    /// The body of the proxy's answer for `proxied`, which plays `url`.
    private func fetch(_ proxied: URL, for url: URL) async throws -> Data {
        let answer = try await LoopbackClient.get(proxied, timeout: 30, limit: Int(Playlist.maximumSize))
        guard answer.status == 200 else { throw LoaderError.origin(.status(answer.status, url: url)) }
        return answer.body
    }
}
