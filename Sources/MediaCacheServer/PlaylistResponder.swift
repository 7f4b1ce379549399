import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MediaCache
import MediaCacheHLS

/// Answers a proxied HLS playlist: reads it whole through the loader, no older than
/// ``PlaylistFreshness`` allows (a live playlist is revalidated every half target duration; a
/// stored copy is served, with its `Age`, when the origin cannot be reached), parses it, and
/// serves it with every URI a player follows routed through the proxy, as a path from the
/// proxy's root (`/t/<token>/https/cdn.example/v/seg1.ts`), so that it resolves against
/// whatever address the player used. URIs resolve against the URL the origin answered from
/// after redirects. Every variant and rendition is kept, except that a downloaded multivariant
/// playlist served while the origin is unreachable lists only what was downloaded. What the
/// playlist names is recorded as one asset in the store.
struct PlaylistResponder: Sendable {
    let loader: MediaLoader
    let token: String?
    let freshness: PlaylistFreshness
    private var logger: Logger { loader.store.configuration.logger }

    func respond(to request: Request, origin: URL, context: ProxyRequestContext) async -> Response {
        // A downloaded playlist is confirmed at every request, so that an unreachable origin is
        // known at once and the playlist restricted to what was downloaded.
        let isDownloaded = (try? loader.store.isDownloaded(loader.store.key(for: origin))) ?? false
        let content: RevalidatedContent
        do {
            content = try await loader.revalidatedContent(of: origin, maximumLength: Playlist.maximumSize) { [freshness] body in
                isDownloaded ? .zero : freshness.maximumAge(of: body)
            }
        } catch {
            return ProxyResponder.failure(error)
        }
        context.tally.add(.bytes(content.chunk))
        let playlist: Playlist
        do {
            playlist = try Playlist(parsing: content.body)
        } catch {
            return ProxyResponder.text(.badGateway, "the origin's playlist \(origin) cannot be read: \(error)\n")
        }
        let base = content.record.contentInfo.finalURL ?? origin
        do {
            try loader.store.recordAsset(of: playlist, at: origin, base: base, generation: content.record.generation)
        } catch {
            logger.warning("playlist not recorded as part of an asset", metadata: ["url": "\(origin)", "error": "\(error)"])
        }
        let route = PlaylistRoute(playlist: base, token: token)
        var served = playlist
        if isDownloaded, content.isStale, playlist.isMultivariant {
            let store = loader.store
            served = PlaylistRestriction.restricted(playlist, base: base) { (try? store.isDownloaded(store.key(for: $0))) ?? false }
        }
        let rewritten = PlaylistRewriter.rewritten(served, base: base, route: route.path(for:))
        let text = ByteBuffer(string: rewritten.text)
        var headers = HTTPFields()
        headers[.contentType] = content.record.contentInfo.mimeType ?? "application/vnd.apple.mpegurl"
        headers[.contentLength] = "\(text.readableBytes)"
        headers[.cacheControl] = "no-cache"
        if let age = content.age, age > .zero { headers[.age] = "\(age.components.seconds)" }
        return Response(status: .ok, headers: headers, body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: text))
    }
}
