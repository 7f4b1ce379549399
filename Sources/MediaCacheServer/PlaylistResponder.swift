import Foundation
import HTTPTypes
import Hummingbird
import MediaCache
import MediaCacheHLS

/// Answers a proxied HLS playlist as the engine's ``PlaylistSource`` reads it (fresh as its
/// ``PlaylistFreshness`` allows, a stored copy with its `Age` when the origin cannot be
/// reached, restricted offline to what was downloaded, from the origin uncached when the
/// store cannot keep it), with every URI a player follows routed through the proxy as a path
/// from the proxy's root (`/t/<token>/https/cdn.example/v/seg1.ts`), so that it resolves
/// against whatever address the player used.
struct PlaylistResponder: Sendable {
    let playlists: PlaylistSource
    let token: String?

    func respond(to request: Request, origin: URL, context: ProxyRequestContext) async throws -> Response {
        let read: SourcedPlaylist
        do {
            read = try await playlists.read(origin)
        } catch let error as PlaylistError {
            throw ProxyRefusal(.badGateway, "the origin's playlist \(origin) cannot be read: \(error)")
        }
        if let failure = read.storeFailure {
            context.tally.note("\(LoaderError.store(failure)); the playlist came from the origin without caching")
        }
        context.tally.add(.bytes(read.chunk))
        let route = PlaylistRoute(playlist: read.base, token: token)
        let text = ByteBuffer(string: read.rewritten(route: route.path(for:)))
        var headers = HTTPFields()
        headers[.contentType] = read.info.mimeType ?? "application/vnd.apple.mpegurl"
        headers[.contentLength] = "\(text.readableBytes)"
        headers[.cacheControl] = "no-cache"
        if let age = read.age, age > .zero { headers[.age] = "\(age.components.seconds)" }
        return Response(status: .ok, headers: headers, body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: text))
    }
}
