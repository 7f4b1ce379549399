import Foundation
import Hummingbird
import MediaCacheHLS
import MediaCacheTesting
import NIOCore

/// A live LL-HLS origin, as a low-latency packager publishes: a media playlist whose parts are
/// byte ranges of the segments (two per segment, which `segments` serves with their ranges),
/// with a preload hint and a rendition report; a blocking reload (`_HLS_msn`, `_HLS_part`)
/// is held until the window holds that segment, and `_HLS_skip=YES` asks for a delta update
/// (`EXT-X-SKIP` in place of all but the last two segments). `publish(through:)` moves the window; the
/// last segment ends the stream.
final class LowLatencyOrigin: Sendable {
    /// The segments' URLs and durations, in order.
    let segments: [(url: URL, duration: Double, length: Int)]
    let port: Int
    private let window: Window
    private let server: Task<Void, any Error>

    /// The live window: the last segment published, the blocking reloads waiting, and the
    /// delivery directives asked for.
    actor Window {
        private(set) var last: Int
        private var waiting: [(msn: Int, continuation: CheckedContinuation<Void, Never>)] = []
        private(set) var directives: [String] = []
        private var directiveWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        init(last: Int) { self.last = last }

        func publish(through msn: Int) {
            last = max(last, msn)
            let ready = waiting.filter { $0.msn <= last }
            waiting.removeAll { $0.msn <= last }
            for waiter in ready { waiter.continuation.resume() }
        }

        /// Returns once segment `msn` is published.
        func wait(for msn: Int, query: String) async {
            directives.append(query)
            let met = directiveWaiters.filter { $0.count <= directives.count }
            directiveWaiters.removeAll { $0.count <= directives.count }
            for waiter in met { waiter.continuation.resume() }
            guard msn > last else { return }
            await withCheckedContinuation { waiting.append((msn, $0)) }
        }

        /// Returns once `count` blocking reloads have come.
        func asked(_ count: Int) async {
            guard directives.count < count else { return }
            await withCheckedContinuation { directiveWaiters.append((count, $0)) }
        }
    }

    private init(segments: [(url: URL, duration: Double, length: Int)], port: Int, window: Window, server: Task<Void, any Error>) {
        self.segments = segments
        self.port = port
        self.window = window
        self.server = server
    }

    /// Starts an origin of `segments`, the window holding them through `last`.
    static func start(segments: [(url: URL, duration: Double, length: Int)], last: Int) async throws -> LowLatencyOrigin {
        let window = Window(last: last)
        let router = Router()
        router.get("/live/index.m3u8") { request, _ -> Response in
            if let msn = request.uri.queryParameters.get("_HLS_msn", as: Int.self) {
                await window.wait(for: msn, query: request.uri.query ?? "")
            }
            let text = Self.playlist(
                segments, last: await window.last,
                skipping: request.uri.queryParameters.get("_HLS_skip") == "YES")
            return Response(
                status: .ok, headers: [.contentType: "application/vnd.apple.mpegurl"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        let (ports, portFound) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { portFound.yield($0.localAddress?.port ?? 0) })
        let server = Task { try await app.runService(gracefulShutdownSignals: []) }
        var found = ports.makeAsyncIterator()
        let port = await found.next() ?? 0
        return LowLatencyOrigin(segments: segments, port: port, window: window, server: server)
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    func publish(through msn: Int) async { await window.publish(through: msn) }

    /// Returns once `count` blocking reloads have come.
    func asked(_ count: Int) async { await window.asked(count) }

    /// The queries of the blocking reloads asked for so far.
    var directives: [String] { get async { await window.directives } }

    func stop() async {
        server.cancel()
        _ = await server.result
    }

    /// The playlist of the window through segment `last`.
    static func playlist(_ segments: [(url: URL, duration: Double, length: Int)], last: Int, skipping: Bool = false) -> String {
        let target = Int(segments.map(\.duration).max()?.rounded(.up) ?? 1)
        let partTarget = (segments.map(\.duration).max() ?? 1) / 2
        var text = """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:\(target)
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=\(2 * target),PART-HOLD-BACK=\(String(format: "%.3f", 3 * partTarget))
            #EXT-X-PART-INF:PART-TARGET=\(String(format: "%.3f", partTarget))
            #EXT-X-MEDIA-SEQUENCE:0

            """
        let skipped = skipping ? max(0, last - 1) : 0
        if skipped > 0 { text += "#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped)\n" }
        for segment in segments[skipped...last] {
            let half = segment.length / 2
            text += String(
                format: "#EXT-X-PART:DURATION=%.3f,URI=\"%@\",BYTERANGE=\"%d@0\",INDEPENDENT=YES\n",
                segment.duration / 2, segment.url.absoluteString, half)
            text += String(
                format: "#EXT-X-PART:DURATION=%.3f,URI=\"%@\",BYTERANGE=\"%d@%d\"\n",
                segment.duration / 2, segment.url.absoluteString, segment.length - half, half)
            text += String(format: "#EXTINF:%.6f,\n", segment.duration) + segment.url.absoluteString + "\n"
        }
        if last + 1 < segments.count {
            text += "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(segments[last + 1].url.absoluteString)\",BYTERANGE-START=0\n"
            text += "#EXT-X-RENDITION-REPORT:URI=\"../audio/index.m3u8\",LAST-MSN=\(last),LAST-PART=1\n"
        } else {
            text += "#EXT-X-ENDLIST\n"
        }
        return text
    }
}
