import Foundation
import MediaCache
import MediaCacheHLS
import MediaCacheHTTP
import MediaCacheTesting

/// Offline downloads: the time to download an HLS presentation from an origin that throttles
/// each connection, against fetching the same segments one after another with the same HTTP
/// client and against `ffmpeg -i URL -c copy`; then the CPU time per downloaded GiB from an
/// unthrottled origin, against the same client reading the same segments into nothing.
struct DownloadBenchmark {
    func run() async throws {
        try await throttledTime()
        try await cpuPerGiB()
    }

    /// Downloads `url` into a fresh store in `directory`; returns once it completed.
    private func download(_ url: URL, into directory: String) async throws {
        var storage = MediaStore.Configuration()
        storage.eviction = .unlimited
        var configuration = CacheEngine.Configuration()
        configuration.store = storage
        let origin = HTTPOrigin()
        let engine = try CacheEngine.open(at: directory, origin: origin, configuration: configuration)
        let manager = try await engine.downloads()
        let download = try await manager.download(url)
        while true {
            let state = await manager.download(named: download.id)?.state
            if state == .completed { break }
            if let error = state?.error { throw BenchmarkError("download failed: \(error)") }
            try await Task.sleep(for: .milliseconds(5))
        }
        try await engine.shutdown()
        try await origin.shutdown()
    }

    /// Fetches `urls` one after another, reading each body to its end.
    private func fetchSequentially(_ urls: [URL]) async throws -> Int64 {
        let origin = HTTPOrigin()
        var bytes: Int64 = 0
        for url in urls {
            for try await chunk in try await origin.fetch(OriginRequest(url: url)).body { bytes += Int64(chunk.count) }
        }
        try await origin.shutdown()
        return bytes
    }

    private func throttledTime() async throws {
        let directory = try TemporaryDirectory(prefix: "mediacache-bench")
        defer { directory.remove() }
        let files = try await TestHLS(.ts, seconds: 60).make(in: directory.path)
        let origin = try await TestOrigin.start()
        for (path, data) in files {
            origin.serve("/hls/" + path, content: .data(data, mimeType: TestHLS.mimeType(of: path)))
            origin.setMisbehavior(.init(bytesPerSecond: 250_000, firstByteDelay: .milliseconds(20)), for: "/hls/" + path)
        }
        let url = origin.url("/hls/index.m3u8")
        let media = try MediaPlaylist(try Playlist(parsing: files["index.m3u8"]!))
        let segments = [url] + media.segments.map { origin.url("/hls/" + $0.uri) }
        let size = files.values.reduce(0) { $0 + $1.count }
        var run = 0
        let (ours, sequential) = try await Measure.interleaved(
            runs: 3, before: { _ in run += 1 },
            {
                try await download(url, into: directory.appending("store-\(run)"))
            },
            {
                _ = try await fetchSequentially(segments)
            })
        let ffmpeg = try Measure.median(runs: 3) {
            let result = try Tool.run(
                "ffmpeg",
                [
                    "-v", "error", "-y", "-i", url.absoluteString, "-c", "copy", "-f", "mpegts",
                    directory.appending("copy.ts"),
                ])
            guard result.status == 0 else { throw BenchmarkError("ffmpeg: \(result.errorOutput)") }
        }
        Measure.header(
            "Downloading a 60-second HLS presentation (\(media.segments.count) segments, \(size / 1024) KiB) at 250 KB/s per connection, 20 ms to first byte, median of 3",
            ours: "DownloadManager", reference: "reference", ratioMeaning: "reference time / ours, higher is better")
        Measure.row(
            "against the same client fetching the segments one after another", ours: Self.text(ours),
            reference: Self.text(sequential), ratio: sequential.timeInterval / ours.timeInterval)
        Measure.row(
            "against `ffmpeg -i URL -c copy`", ours: Self.text(ours), reference: Self.text(ffmpeg),
            ratio: ffmpeg.timeInterval / ours.timeInterval)
        try await origin.stop()
    }

    private func cpuPerGiB() async throws {
        let directory = try TemporaryDirectory(prefix: "mediacache-bench")
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        let count = 256
        var playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for number in 0..<count {
            origin.serve("/big/s\(number).ts", content: .pattern(length: 1 << 20, seed: UInt64(number), mimeType: "video/mp2t"))
            playlist += "#EXTINF:4,\ns\(number).ts\n"
        }
        playlist += "#EXT-X-ENDLIST\n"
        origin.serve("/big/index.m3u8", content: .data(Data(playlist.utf8), mimeType: "application/vnd.apple.mpegurl"))
        let url = origin.url("/big/index.m3u8")
        let segments = (0..<count).map { origin.url("/big/s\($0).ts") }
        let gibibytes = Double(count) / 1024

        let referenceStart = Self.cpuSeconds()
        _ = try await fetchSequentially(segments)
        let reference = (Self.cpuSeconds() - referenceStart) / gibibytes
        let oursStart = Self.cpuSeconds()
        try await download(url, into: directory.appending("store"))
        let ours = (Self.cpuSeconds() - oursStart) / gibibytes

        Measure.header(
            "CPU time per downloaded GiB (256 segments of 1 MiB, unthrottled loopback origin in the same process)",
            ours: "DownloadManager, stored and committed", reference: "the client reading the bodies into nothing",
            ratioMeaning: "ours / reference, lower is better")
        Measure.row(
            "user + system CPU per GiB", ours: String(format: "%.2f s", ours), reference: String(format: "%.2f s", reference),
            ratio: ours / reference)
        try await origin.stop()
    }

    /// The process's user and system CPU time so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func text(_ duration: Duration) -> String {
        String(format: "%.2f s", duration.timeInterval)
    }
}
