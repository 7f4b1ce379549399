import Foundation
import MediaCacheTesting

/// What encryption at rest costs: `mediacache serve --encrypt-key-file` against the same
/// server without it, in the same run, in front of the same nginx origin: cache hits under wrk
/// (rate and server CPU per GiB) and cold fetches of a whole file with curl.
struct EncryptionBenchmark {
    static let file = ("/large.mp4", Int64(256) << 20)

    func run() throws {
        let directory = try TemporaryDirectory(prefix: "mediacache-bench")
        defer { directory.remove() }
        let www = directory.appending("www")
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        try ProxyBenchmark.writeFile(at: www + Self.file.0, length: Self.file.1)
        let nginx = try Nginx.start(root: www, workDirectory: directory.path)
        defer { nginx.stop() }
        let keyFile = directory.appending("cache.key")
        try Data((String(repeating: "5a", count: 32) + "\n").utf8).write(to: URL(fileURLWithPath: keyFile))
        let encrypted = try ProxyBenchmark.startProxy(cacheDirectory: directory.appending("encrypted"), ["--encrypt-key-file", keyFile])
        defer { encrypted.stop() }
        let plain = try ProxyBenchmark.startProxy(cacheDirectory: directory.appending("plain"))
        defer { plain.stop() }
        func url(_ proxy: ServeProcess, _ query: String = "") -> String {
            "\(proxy.root)http/127.0.0.1:\(nginx.port)\(Self.file.0)\(query)"
        }

        Measure.header(
            "Encryption at rest (\(Self.file.1 >> 20) MiB file, nginx on loopback as the origin, median of 3)",
            ours: "serve --encrypt-key-file", reference: "serve",
            ratioMeaning: "encrypted / plain; rate: higher is better, CPU: lower is better")
        var cold: (ours: [Double], reference: [Double]) = ([], [])
        for index in 0..<3 {
            cold.reference.append(try ProxyBenchmark.downloadRate(url(plain, "?cold=\(index)")))
            cold.ours.append(try ProxyBenchmark.downloadRate(url(encrypted, "?cold=\(index)")))
        }
        let (coldOurs, coldReference) = (Measure.median(of: cold.ours), Measure.median(of: cold.reference))
        Measure.row(
            "cold fetch (curl): transfer rate", ours: String(format: "%.0f MiB/s", coldOurs),
            reference: String(format: "%.0f MiB/s", coldReference), ratio: coldOurs / coldReference)

        for proxy in [plain, encrypted] { _ = try Tool.run("curl", ["-sf", "-o", "/dev/null", url(proxy)]) }
        for connections in [1, 8] {
            var ours: [WrkRun] = []
            var reference: [WrkRun] = []
            for _ in 0..<3 {
                reference.append(try WrkRun.run(url(plain), connections: connections, seconds: 4, serverPID: plain.pid))
                ours.append(try WrkRun.run(url(encrypted), connections: connections, seconds: 4, serverPID: encrypted.pid))
            }
            WrkRun.rows(
                "cache hits (wrk, \(connections) connection\(connections == 1 ? "" : "s"))",
                ours: WrkRun.median(ours), reference: WrkRun.median(reference))
        }
    }
}
