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

    func respond(to request: Request, origin: URL, context: ProxyRequestContext) async throws -> Response {
        // A downloaded playlist is confirmed at every request, so that an unreachable origin is
        // known at once and the playlist restricted to what was downloaded.
        let isDownloaded = (try? loader.store.isDownloaded(loader.store.key(for: origin))) ?? false
        let content: RevalidatedContent
        do {
            content = try await loader.revalidatedContent(of: origin, maximumLength: Playlist.maximumSize) { [freshness] body in
                isDownloaded ? .zero : freshness.maximumAge(of: body)
            }
        } catch .store(let failure) {
            return try await respondUncached(to: request, origin: origin, because: failure, context: context)
        } catch {
            // Named, not left to propagate: the compiler fails on a typed catch that is not exhaustive here.
            throw error
        }
        context.tally.add(.bytes(content.chunk))
        let playlist: Playlist
        do {
            playlist = try Playlist(parsing: content.body)
        } catch {
            throw Self.unreadable(origin, error)
        }
        let base = content.record.contentInfo.finalURL ?? origin
        do {
            try loader.store.recordAsset(of: playlist, at: origin, base: base, generation: content.record.generation)
        } catch {
            logger.warning("playlist not recorded as part of an asset", metadata: ["url": "\(origin)", "error": "\(error)"])
        }
        var served = playlist
        if isDownloaded, content.isStale, playlist.isMultivariant {
            let store = loader.store
            served = PlaylistRestriction.restricted(playlist, base: base) { (try? store.isDownloaded(store.key(for: $0))) ?? false }
        }
        return answer(served, base: base, info: content.record.contentInfo, age: content.age, to: request)
    }

    /// The playlist straight from the origin, rewritten as always and stored nowhere, when the
    /// store cannot keep it (a full disk, a failing one): as ``ProxyResponder`` relays any other
    /// body the store fails on.
    private func respondUncached(to request: Request, origin: URL, because failure: MediaStoreError,
                                 context: ProxyRequestContext) async throws -> Response {
        context.tally.note("\(LoaderError.store(failure)); the playlist came from the origin without caching")
        let relay = UncachedRelay(origin: loader.origin, url: origin, tally: context.tally)
        let (body, info) = try await relay.whole(maximumLength: Playlist.maximumSize)
        do {
            return answer(try Playlist(parsing: body), base: info.finalURL ?? origin, info: info, age: nil, to: request)
        } catch {
            throw Self.unreadable(origin, error)
        }
    }

    /// `playlist` with every URI a player follows routed through the proxy.
    private func answer(_ playlist: Playlist, base: URL, info: ContentInfo, age: Duration?, to request: Request) -> Response {
        let route = PlaylistRoute(playlist: base, token: token)
        let rewritten = PlaylistRewriter.rewritten(playlist, base: base, route: route.path(for:))
        let text = ByteBuffer(string: rewritten.text)
        var headers = HTTPFields()
        headers[.contentType] = info.mimeType ?? "application/vnd.apple.mpegurl"
        headers[.contentLength] = "\(text.readableBytes)"
        headers[.cacheControl] = "no-cache"
        if let age, age > .zero { headers[.age] = "\(age.components.seconds)" }
        return Response(status: .ok, headers: headers, body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: text))
    }

    private static func unreadable(_ origin: URL, _ error: any Error) -> ProxyRefusal {
        ProxyRefusal(.badGateway, "the origin's playlist \(origin) cannot be read: \(error)")
    }
}
