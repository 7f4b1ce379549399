import Foundation
import HTTPTypes
import Hummingbird
import MediaCache
import MediaCacheHLS

/// Answers a proxied HLS playlist: reads it whole through the loader (cached like any bytes),
/// parses it, and serves it with every URI a player follows routed through the proxy, as a
/// path from the proxy's root (`/t/<token>/https/cdn.example/v/seg1.ts`), so that it resolves
/// against whatever address the player used. Every variant and rendition is kept.
struct PlaylistResponder: Sendable {
    let loader: MediaLoader
    let token: String?

    func respond(to request: Request, origin: URL, record: ResourceRecord, context: ProxyRequestContext) async -> Response {
        let body: Data
        do {
            body = try await read(origin, record: record, tally: context.tally)
        } catch let error as LoaderError {
            return ProxyResponder.failure(error)
        } catch {
            return ProxyResponder.text(.badGateway, "\(error)\n")
        }
        let playlist: Playlist
        do {
            playlist = try Playlist(parsing: body)
        } catch {
            return ProxyResponder.text(.badGateway, "the origin's playlist \(origin) cannot be read: \(error)\n")
        }
        let route = PlaylistRoute(playlist: origin, token: token)
        let rewritten = PlaylistRewriter.rewritten(playlist, base: origin, route: route.path(for:))
        let text = ByteBuffer(string: rewritten.text)
        var headers = HTTPFields()
        headers[.contentType] = record.contentInfo.mimeType ?? "application/vnd.apple.mpegurl"
        headers[.contentLength] = "\(text.readableBytes)"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: text))
    }

    /// The whole playlist, at most `Playlist.maximumSize` bytes.
    private func read(_ origin: URL, record: ResourceRecord, tally: ResponseTally) async throws -> Data {
        if let length = record.contentInfo.totalLength, length > Playlist.maximumSize { throw PlaylistTooLarge(origin: origin) }
        var body = Data()
        for try await chunk in loader.read(origin, ByteRequest(offset: 0)) {
            tally.add(chunk)
            body.append(chunk.bytes)
            if Int64(body.count) > Playlist.maximumSize { throw PlaylistTooLarge(origin: origin) }
        }
        return body
    }

    /// A playlist larger than `Playlist.maximumSize`.
    struct PlaylistTooLarge: Error, CustomStringConvertible {
        let origin: URL

        var description: String {
            "the origin's playlist \(origin) is larger than \(ByteCountText.string(Playlist.maximumSize)); it is not served"
        }
    }
}
