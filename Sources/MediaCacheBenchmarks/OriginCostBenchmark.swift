import Foundation
import MediaCache
import MediaCacheTesting

/// What players through `mediacache serve` cost an unthrottled origin, counted as the origin
/// sees it (body bytes written to its sockets), against nginx `proxy_cache` with `slice 1m` in
/// front of the same origin in the same run: an AVPlayer-like seek session and its replay, a
/// sequential read with one reconnect, and 16 cold readers at once. Then cold throughput
/// through the proxy against curl straight from nginx.
struct OriginCostBenchmark {
    let runs = 5

    func run() async throws {
        let directory = try TemporaryDirectory(prefix: "mediacache-bench")
        defer { directory.remove() }
        let origin = try await TestOrigin.start()
        let proxy = try ProxyBenchmark.startProxy(cacheDirectory: directory.appending("cache"))
        defer { proxy.stop() }
        let nginxDirectory = directory.appending("nginx")
        try FileManager.default.createDirectory(atPath: nginxDirectory, withIntermediateDirectories: true)
        let nginx = try Nginx.startSliceCache(originPort: origin.port, workDirectory: nginxDirectory)
        defer { nginx.stop() }
        guard let proxyPort = URL(string: proxy.root)?.port else { throw BenchmarkError("no port in \(proxy.root)") }
        let fronts = [
            Front(client: RangeClient(port: proxyPort), prefix: "/http/127.0.0.1:\(origin.port)"),
            Front(client: RangeClient(port: nginx.port), prefix: ""),
        ]
        try seekSessions(origin: origin, fronts: fronts)
        try reconnectingRead(origin: origin, fronts: fronts)
        try concurrentReaders(origin: origin, fronts: fronts)
        try await origin.stop()
        try coldThroughput(directory: directory, proxy: proxy)
    }

    /// A caching server in front of the origin: where to connect, and the path prefix that
    /// names the origin's resources on it.
    private struct Front {
        let client: RangeClient
        let prefix: String
    }

    /// A seek-heavy session: a 2-byte probe; open-ended reads abandoned after 700 KB, 1 MB,
    /// 2 MB, 1 MB and 3 MB; the last 64 KiB; a bounded read across a cached span. Returns the
    /// unique bytes delivered.
    private func seekSession(_ front: Front, path: String, length: Int64) throws -> Int64 {
        let steps: [(offset: Int64, end: Int64?, stopAfter: Int64?)] = [
            (0, 2, nil), (0, nil, 700_000), (length - 65_536, nil, nil), (20_000_000, nil, 1_000_000),
            (40_000_000, nil, 2_000_000), (10_000_000, nil, 1_000_000), (600_000, nil, 3_000_000),
            (19_500_000, 22_000_000, nil),
        ]
        var unique: [Range<Int64>] = []
        for step in steps {
            let range = "bytes=\(step.offset)-" + (step.end.map { "\($0 - 1)" } ?? "")
            let received = try front.client.get(front.prefix + path, range: range, stopAfter: step.stopAfter)
            unique.append(step.offset..<(step.offset + received))
        }
        return Self.coveredLength(unique)
    }

    private func seekSessions(origin: TestOrigin, fronts: [Front]) throws {
        let length: Int64 = 64 << 20
        var firstPass: [[Double]] = [[], []]
        var secondPass: [[Int64]] = [[], []]
        for run in 0..<runs {
            for (index, front) in fronts.enumerated() {
                let path = "/seek-\(index)-\(run).mp4"
                origin.serve(path, content: .pattern(length: length, seed: UInt64(run + 1)))
                let unique = try seekSession(front, path: path, length: length)
                let first = origin.bytesSent(for: path)
                _ = try seekSession(front, path: path, length: length)
                firstPass[index].append(Double(first) / Double(unique))
                secondPass[index].append(origin.bytesSent(for: path) - first)
            }
        }
        Measure.header(
            "Origin bytes on an unthrottled origin (bytes written to its sockets; \(runs) runs, each on a fresh cache key)",
            ours: "mediacache serve", reference: "nginx `slice 1m` + `proxy_cache`",
            ratioMeaning: "ours / nginx, lower is better")
        let (ours, reference) = (Measure.median(of: firstPass[0]), Measure.median(of: firstPass[1]))
        Measure.row(
            "seek session (64 MiB file), first pass: origin / unique bytes delivered, median (min–max)",
            ours: Self.spread(firstPass[0]), reference: Self.spread(firstPass[1]), ratio: ours / reference)
        Measure.row(
            "the same session again: origin bytes, each run",
            ours: secondPass[0].map(String.init).joined(separator: ", "),
            reference: secondPass[1].map(String.init).joined(separator: ", "),
            ratio: Double(secondPass[0].reduce(0, +)) / Double(max(secondPass[1].reduce(0, +), 1)))
    }

    /// A VLC-like read of a whole file that reconnects once, a third of the way in, from the
    /// byte where it stopped.
    private func reconnectingRead(origin: TestOrigin, fronts: [Front]) throws {
        let length: Int64 = 32 << 20
        var ratios: [[Double]] = [[], []]
        for run in 0..<runs {
            for (index, front) in fronts.enumerated() {
                let path = "/sequential-\(index)-\(run).mp4"
                origin.serve(path, content: .pattern(length: length, seed: 7))
                let first = try front.client.get(front.prefix + path, range: "bytes=0-", stopAfter: length / 3)
                let rest = try front.client.get(front.prefix + path, range: "bytes=\(first)-")
                guard first + rest == length else { throw BenchmarkError("read \(first + rest) of \(length) bytes of \(path)") }
                ratios[index].append(Double(origin.bytesSent(for: path)) / Double(length))
            }
        }
        Measure.row(
            "sequential read with one reconnect (32 MiB): origin / file, median (min–max)",
            ours: Self.spread(ratios[0]), reference: Self.spread(ratios[1]),
            ratio: Measure.median(of: ratios[0]) / Measure.median(of: ratios[1]))
    }

    /// Sixteen players start the same cold file at once.
    private func concurrentReaders(origin: TestOrigin, fronts: [Front]) throws {
        let length: Int64 = 32 << 20
        var copies: [Double] = []
        for (index, front) in fronts.enumerated() {
            let path = "/popular-\(index).mp4"
            origin.serve(path, content: .pattern(length: length, seed: 9))
            let received = Locked<[Int64]>([])
            let group = DispatchGroup()
            for _ in 0..<16 {
                group.enter()
                Thread.detachNewThread {
                    let count = (try? front.client.get(front.prefix + path)) ?? -1
                    received.withLock { $0.append(count) }
                    group.leave()
                }
            }
            group.wait()
            guard received.withLock({ $0.allSatisfy { $0 == length } }) else {
                throw BenchmarkError("not every reader of \(path) got \(length) bytes: \(received.withLock { $0 })")
            }
            copies.append(Double(origin.bytesSent(for: path)) / Double(length))
        }
        Measure.row(
            "16 cold readers of one 32 MiB file at once: copies the origin sent",
            ours: String(format: "%.2f", copies[0]), reference: String(format: "%.2f", copies[1]),
            ratio: copies[0] / copies[1])
    }

    /// A cold 256 MiB file through the proxy against curl fetching it from nginx, both written
    /// to a file by curl; median of 3, alternating.
    private func coldThroughput(directory: TemporaryDirectory, proxy: ServeProcess) throws {
        let www = directory.appending("www")
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        let length: Int64 = 256 << 20
        try ProxyBenchmark.writeFile(at: www + "/big.mp4", length: length)
        let server = try Nginx.start(root: www, workDirectory: directory.path)
        defer { server.stop() }
        let output = directory.appending("out.mp4")
        var proxied: [Double] = []
        var direct: [Double] = []
        for run in 0..<3 {
            direct.append(try curlRate(server.url("/big.mp4").absoluteString, to: output))
            proxied.append(try curlRate("\(proxy.root)http/127.0.0.1:\(server.port)/big.mp4?run=\(run)", to: output))
        }
        Measure.header(
            "Cold throughput through the proxy (256 MiB, nginx on loopback as the origin, curl to a file, median of 3)",
            ours: "mediacache serve, cold", reference: "curl from nginx directly",
            ratioMeaning: "proxy / direct, higher is better")
        let (ours, reference) = (Measure.median(of: proxied), Measure.median(of: direct))
        Measure.row(
            "cold transfer rate", ours: String(format: "%.0f MiB/s", ours), reference: String(format: "%.0f MiB/s", reference),
            ratio: ours / reference)
    }

    private func curlRate(_ url: String, to output: String) throws -> Double {
        try? FileManager.default.removeItem(atPath: output)
        let run = try Tool.run("curl", ["-sf", "-o", output, "-w", "%{speed_download}", url])
        guard let bytesPerSecond = Double(run.output) else { throw BenchmarkError("curl \(url): \(run.errorOutput)") }
        return bytesPerSecond / 1_048_576
    }

    private static func coveredLength(_ ranges: [Range<Int64>]) -> Int64 {
        var covered: Int64 = 0
        var end: Int64 = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let start = max(range.lowerBound, end)
            if range.upperBound > start { covered += range.upperBound - start }
            end = max(end, range.upperBound)
        }
        return covered
    }

    private static func spread(_ values: [Double]) -> String {
        String(format: "%.2f (%.2f–%.2f)", Measure.median(of: values), values.min() ?? 0, values.max() ?? 0)
    }
}
