import Foundation
import MediaCacheTesting

/// Cache hits through `mediacache serve` against nginx serving the same file with `sendfile`:
/// throughput and the server's CPU time per GiB, for a small and a large file at 1, 8 and 64
/// connections.
///
/// The reference file is written fresh, in 1 MiB writes; the cache's data file is written as a
/// fetch writes it, in chunks of about 256 KiB at any offset. Linux keeps the first in page-cache
/// folios of 1 MiB and the second in smaller folios, and `sendfile` sends larger folios faster.
/// Each row therefore also runs nginx on the cache's own data file, linked into its root: the
/// same pages our server sends.
///
/// The latency row tracks how evenly a server shares itself among its connections.
struct ProxyHitBenchmark {
    let nginx: Nginx
    let proxy: ServeProcess
    /// The proxy's cache directory, whose data files nginx also serves.
    let cacheDirectory: String

    /// The files, under nginx's root, with the names the table gives them.
    static let files = [("/clip.mp4", "8 MiB"), ("/large.mp4", "256 MiB")]
    static let connectionCounts = [1, 8, 64]
    /// The file whose rows include the latency: the 8 MiB one.
    static let latencyFile = files[0].0
    /// Rounds per row, each a run of nginx then one of the proxy. On this 2-core machine runs
    /// of the same server vary by about ±10 %, as much as the difference measured; the median
    /// of five is steadier than that of three.
    static let rounds = 5
    /// Seconds per round: rounds at several connections vary from one to the next, and take 12 s
    /// so that a ratio means something; one connection, which varies less, keeps 4 s.
    static func seconds(connections: Int) -> Int {
        connections == 1 ? 4 : 12
    }

    func run() throws {
        Measure.header(
            "Cache hits over loopback (`wrk -d12s`, 2 threads; one connection: `-d4s`, 1 thread; "
                + "median of \(Self.rounds) by rate)",
            ours: "mediacache serve", reference: "nginx (sendfile)",
            ratioMeaning: "proxy / nginx; transfer rate: higher is better, CPU and latency: lower is better")
        for (path, name) in Self.files {
            let cached = proxy.root + "http/127.0.0.1:\(nginx.port)\(path)"
            _ = try Tool.run("curl", ["-sf", "-o", "/dev/null", cached])
            let samePages = try linkDataFile(of: path)
            for connections in Self.connectionCounts {
                var ours: [WrkRun] = []
                var reference: [WrkRun] = []
                var sameReference: [WrkRun] = []
                let seconds = Self.seconds(connections: connections)
                for _ in 0..<Self.rounds {
                    reference.append(
                        try WrkRun.run(
                            nginx.url(path).absoluteString, connections: connections, seconds: seconds,
                            serverPID: nginx.pid))
                    sameReference.append(
                        try WrkRun.run(
                            nginx.url(samePages).absoluteString, connections: connections,
                            seconds: seconds, serverPID: nginx.pid))
                    ours.append(try WrkRun.run(cached, connections: connections, seconds: seconds, serverPID: proxy.pid))
                }
                let label = "\(name), \(connections) connection\(connections == 1 ? "" : "s")"
                let median = WrkRun.median(ours)
                WrkRun.rows(label, ours: median, reference: WrkRun.median(reference))
                WrkRun.rateRow(
                    "\(label): transfer rate, nginx on the cache's data file", ours: median,
                    reference: WrkRun.median(sameReference))
                // A run completes few responses of 256 MiB at many connections: no tail to read.
                if path == Self.latencyFile {
                    WrkRun.latencyRow("\(label): 99th-percentile latency (median of the runs)", ours: ours, reference: reference)
                }
            }
        }
    }

    /// Links the data file the cache filled for `path` into nginx's root; returns its path there.
    private func linkDataFile(of path: String) throws -> String {
        let length = try FileManager.default.attributesOfItem(atPath: nginx.root + path)[.size] as? Int ?? -1
        let data = cacheDirectory + "/data"
        let newest = try FileManager.default.contentsOfDirectory(atPath: data)
            .map { data + "/" + $0 }
            .compactMap { file -> (String, Date)? in
                let attributes = try FileManager.default.attributesOfItem(atPath: file)
                guard attributes[.size] as? Int == length, let modified = attributes[.modificationDate] as? Date else { return nil }
                return (file, modified)
            }
            .max { $0.1 < $1.1 }
        guard let (file, _) = newest else { throw BenchmarkError("no data file of \(length) bytes in \(data)") }
        let linked = "/cached" + path.replacingOccurrences(of: "/", with: "-")
        try FileManager.default.linkItem(atPath: file, toPath: nginx.root + linked)
        return linked
    }
}
