import Foundation
import MediaCacheTesting

/// Cache hits through `mediacache serve` against nginx serving the same file with `sendfile`:
/// throughput and the server's CPU time per GiB, for a small and a large file at 1, 8 and 64
/// connections.
struct ProxyHitBenchmark {
    let nginx: Nginx
    let proxy: ServeProcess

    /// The files, under nginx's root, with the names the table gives them.
    static let files = [("/clip.mp4", "8 MiB"), ("/large.mp4", "256 MiB")]
    static let connectionCounts = [1, 8, 64]
    /// Rounds per row, each a run of nginx then one of the proxy. On this 2-core machine runs
    /// of the same server vary by about ±10 %, as much as the difference measured; the median
    /// of five is steadier than that of three.
    static let rounds = 5

    func run() throws {
        Measure.header("Cache hits over loopback (`wrk -d4s`, 2 threads, median of \(Self.rounds) by rate)", ours: "mediacache serve",
                       reference: "nginx (sendfile)",
                       ratioMeaning: "proxy / nginx; transfer rate: higher is better, CPU: lower is better")
        for (path, name) in Self.files {
            let cached = proxy.root + "http/127.0.0.1:\(nginx.port)\(path)"
            _ = try Tool.run("curl", ["-sf", "-o", "/dev/null", cached])
            for connections in Self.connectionCounts {
                var ours: [WrkRun] = []
                var reference: [WrkRun] = []
                for _ in 0..<Self.rounds {
                    reference.append(try WrkRun.run(nginx.url(path).absoluteString, connections: connections, seconds: 4,
                                                    serverPID: nginx.pid))
                    ours.append(try WrkRun.run(cached, connections: connections, seconds: 4, serverPID: proxy.pid))
                }
                WrkRun.rows("\(name), \(connections) connection\(connections == 1 ? "" : "s")",
                            ours: WrkRun.median(ours), reference: WrkRun.median(reference))
            }
        }
    }
}
