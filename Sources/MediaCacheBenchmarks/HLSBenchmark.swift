import Foundation
import MediaCache
import MediaCacheHLS
import MediaCacheTesting

/// A 24-hour VOD media playlist (43,200 two-second segments) through `mediacache serve`,
/// rewritten, against the same bytes served unmodified (a leading blank line keeps them from
/// being taken for a playlist); both from the cache, nginx as the origin. And the parse,
/// rewrite and write alone, in process, against decoding the same bytes as text.
struct HLSBenchmark {
    static let segments = 43_200

    func run() async throws {
        let directory = try TemporaryDirectory(prefix: "mediacache-bench")
        defer { directory.remove() }
        let www = directory.appending("www")
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        let playlist = Self.dayPlaylist()
        try playlist.write(to: URL(fileURLWithPath: www + "/day.m3u8"))
        try (Data("\n".utf8) + playlist).write(to: URL(fileURLWithPath: www + "/day.bin"))
        let nginx = try Nginx.start(root: www, workDirectory: directory.path)
        defer { nginx.stop() }
        let proxy = try ProxyBenchmark.startProxy(cacheDirectory: directory.appending("cache"))
        defer { proxy.stop() }

        let rewritten = "\(proxy.root)http/127.0.0.1:\(nginx.port)/day.m3u8"
        let unmodified = "\(proxy.root)http/127.0.0.1:\(nginx.port)/day.bin"
        let answer = try Tool.run("curl", ["-sf", rewritten])
        guard answer.output.contains("/http/127.0.0.1:\(nginx.port)/segment43199.ts") else {
            throw BenchmarkError("the playlist was not rewritten: \(answer.output.prefix(300))")
        }
        _ = try Tool.run("curl", ["-sf", "-o", "/dev/null", unmodified])
        var ours: [Double] = []
        var reference: [Double] = []
        for _ in 0..<21 {
            ours.append(try totalTime(rewritten))
            reference.append(try totalTime(unmodified))
        }
        let (rewrite, plain) = (Measure.median(of: ours), Measure.median(of: reference))
        Measure.header(
            "A 24-hour VOD playlist (43,200 segments, \(playlist.count >> 10) KiB) from the cache, curl, median of 21",
            ours: "rewritten playlist", reference: "same bytes unmodified", ratioMeaning: "rewritten / unmodified, lower is better")
        Measure.row(
            "whole answer", ours: String(format: "%.1f ms", rewrite * 1000), reference: String(format: "%.1f ms", plain * 1000),
            ratio: rewrite / plain)

        let base = URL(string: "https://cdn.example/vod/day.m3u8")!
        let parsing = try Measure.median(runs: 7) {
            let parsed = try Playlist(parsing: playlist)
            _ = PlaylistRewriter.rewritten(parsed, base: base) { "/https/cdn.example" + $0.path }.text
        }
        let decoding = Measure.median(runs: 7) {
            _ = String(decoding: playlist, as: UTF8.self).split(separator: "\n").count
        }
        Measure.header(
            "The same playlist in process, median of 7", ours: "parse, rewrite, write",
            reference: "decode as UTF-8 and split lines", ratioMeaning: "ours / reference, lower is better")
        Measure.row(
            "43,200 segments", ours: String(format: "%.1f ms", parsing.timeInterval * 1000),
            reference: String(format: "%.1f ms", decoding.timeInterval * 1000), ratio: parsing.timeInterval / decoding.timeInterval)
        nginx.stop()
        proxy.stop()
        try await HLSPlaybackCost().run()
    }

    static func dayPlaylist() -> Data {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for index in 0..<segments { text += "#EXTINF:2.000000,\nsegment\(index).ts\n" }
        return Data((text + "#EXT-X-ENDLIST\n").utf8)
    }

    private func totalTime(_ url: String) throws -> Double {
        let run = try Tool.run("curl", ["-sf", "-o", "/dev/null", "-w", "%{time_total}", url])
        guard let seconds = Double(run.output) else { throw BenchmarkError("curl \(url): \(run.errorOutput)") }
        return seconds
    }
}
