import Foundation
import MediaCacheTesting

/// What whole HLS playbacks through `mediacache serve` cost the origin, in the bytes it writes
/// to its sockets: ffmpeg decodes a 30-second multivariant presentation (a video variant, two
/// audio languages) through the proxy, then again; against the bytes of the segments played.
/// Once from an unthrottled origin, once from one at 8 Mbit/s with 40 ms before each answer.
struct HLSPlaybackCost {
    func run() async throws {
        let directory = try TemporaryDirectory(prefix: "mediacache-bench")
        defer { directory.remove() }
        let files = try await TestHLS(.multivariant, seconds: 30).make(in: directory.path)
        let segments = files.filter { $0.key.hasSuffix(".ts") }
        let segmentBytes = segments.values.reduce(0) { $0 + Int64($1.count) }
        Measure.header(
            "Origin bytes of whole HLS playbacks (30 s, one video variant, two audio languages; ffmpeg decodes all)",
            ours: "origin bytes sent for segments", reference: "segment bytes played",
            ratioMeaning: "origin / played, 1.00 is ideal, 0 on a second playback")
        for throttled in [false, true] {
            let origin = try await TestOrigin.start()
            for (path, data) in files {
                origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path)))
                if throttled {
                    origin.setMisbehavior(.init(bytesPerSecond: 1_000_000, firstByteDelay: .milliseconds(40)), for: "/hls/" + path)
                }
            }
            let proxy = try ProxyBenchmark.startProxy(cacheDirectory: directory.appending("cache-\(throttled)"))
            let url = "\(proxy.root)http/127.0.0.1:\(origin.port)/hls/master.m3u8"
            func sent() -> Int64 { segments.keys.reduce(0) { $0 + origin.bytesSent(for: "/hls/" + $1) } }
            for pass in ["first playback", "second playback"] {
                let before = sent()
                let run = try Tool.run("ffmpeg", ["-v", "error", "-i", url, "-map", "0:v", "-map", "0:a", "-f", "null", "-"])
                guard run.status == 0 else { throw BenchmarkError("ffmpeg \(url): \(run.errorOutput)") }
                let cost = sent() - before
                Measure.row(
                    "\(throttled ? "throttled (8 Mbit/s, 40 ms)" : "unthrottled"), \(pass)", ours: "\(cost)",
                    reference: "\(segmentBytes)", ratio: Double(cost) / Double(segmentBytes))
            }
            proxy.stop()
            try await origin.stop()
        }
    }
}
