import Foundation
import MediaCacheTesting

/// `mediacache serve` against nginx on loopback: cache hits under wrk (``ProxyHitBenchmark``),
/// time to the first byte on a miss against asking the origin directly and against nginx
/// `proxy_cache`, cold throughput against nginx `proxy_cache`, and the server's peak memory
/// while streaming a large file cold and warm.
struct ProxyBenchmark {
    func run() throws {
        let directory = try TemporaryDirectory(prefix: "mediacache-bench")
        defer { directory.remove() }
        let www = directory.appending("www")
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        for (path, length) in [("/clip.mp4", Int64(8) << 20), ("/large.mp4", 256 << 20), ("/first.mp4", 1 << 20)] {
            try Self.writeFile(at: www + path, length: length)
        }
        let nginx = try Nginx.start(root: www, workDirectory: directory.path)
        defer { nginx.stop() }
        let nginxCache = directory.appending("nginx-cache")
        try FileManager.default.createDirectory(atPath: nginxCache, withIntermediateDirectories: true)
        let cache = try Nginx.startProxyCache(originPort: nginx.port, workDirectory: nginxCache)
        defer { cache.stop() }

        let proxy = try Self.startProxy(cacheDirectory: directory.appending("cache"))
        defer { proxy.stop() }
        try ProxyHitBenchmark(nginx: nginx, proxy: proxy, cacheDirectory: directory.appending("cache")).run()
        try missTimeToFirstByte(nginx: nginx, proxy: proxy, cache: cache)
        try coldThroughput(nginx: nginx, proxy: proxy, cache: cache)
        proxy.stop()
        try streamingMemory(nginx: nginx, directory: directory)
    }

    /// Each request through a cache is a miss: the query makes a new cache key, which the
    /// origin ignores. nginx `proxy_cache` in front of the same origin is the other cache. Each
    /// is measured on a new connection (one curl per request) and on a kept-alive one (a miss
    /// of another key first on the same connection), as a player's second request is.
    private func missTimeToFirstByte(nginx: Nginx, proxy: ServeProcess, cache: Nginx) throws {
        Measure.header(
            "Time to first byte on a miss (1 MiB file, curl, median of 21)", ours: "mediacache serve",
            reference: "reference", ratioMeaning: "ours / reference, lower is better")
        for reusing in [false, true] {
            var proxied: [Double] = []
            var direct: [Double] = []
            var nginxCached: [Double] = []
            for index in 0..<21 {
                let query = "/first.mp4?n=\(index)&kept=\(reusing)"
                direct.append(try timeToFirstByte(nginx.url(query).absoluteString, reusingConnection: reusing))
                proxied.append(try timeToFirstByte(proxyURL(proxy, nginx, query), reusingConnection: reusing))
                nginxCached.append(try timeToFirstByte(cache.url(query).absoluteString, reusingConnection: reusing))
            }
            let (ours, origin, other) = (Measure.median(of: proxied), Measure.median(of: direct), Measure.median(of: nginxCached))
            func milliseconds(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }
            let connection = reusing ? "kept-alive connection" : "new connection"
            Measure.row(
                "\(connection): against the origin (nginx serving the file) directly", ours: milliseconds(ours),
                reference: milliseconds(origin), ratio: ours / origin)
            Measure.row(
                "\(connection): against nginx `proxy_cache` in front of that origin", ours: milliseconds(ours),
                reference: milliseconds(other), ratio: ours / other)
        }
    }

    /// A whole file fetched through each cache while nothing of it is cached (a new query per
    /// fetch makes a new key; the origin ignores it), alternating, median of ``coldRounds``.
    ///
    /// Single fetches here run at anywhere from half to one and a half times their median, so a
    /// median of five could not tell 5 % apart. A round costs a fraction of a second, so the
    /// rows take more of them.
    ///
    /// Each fetch leaves its file's pages dirty. On this machine a fetch that runs while the
    /// kernel writes back the fetches before it can take three times the CPU and run at a third
    /// of the rate, and so can one whose pages grow the page cache past a few gibibytes: the
    /// virtual machine's host has taken that memory back, and each new page costs a fault in
    /// the host. Both measure the machine, not the cache, and decided which server a run
    /// favoured. So each fetch starts afresh (``startAfresh(proxy:cache:)``): both caches
    /// empty, the disk written back. What our server writes back itself during its fetch (each
    /// commit flushes its data file; nginx flushes nothing) still counts against it. The caches
    /// also take turns to go first, round by round.
    private func coldThroughput(nginx: Nginx, proxy: ServeProcess, cache: Nginx) throws {
        let medians = ProxyHitBenchmark.files.map { "\(Self.coldRounds(of: $0.0)) for \($0.1)" }.joined(separator: ", ")
        Measure.header(
            "Cold fetch of a whole file through a cache (curl, median of \(medians), each from empty caches)",
            ours: "mediacache serve", reference: "nginx `proxy_cache`", ratioMeaning: "proxy / nginx, higher is better")
        for (path, name) in ProxyHitBenchmark.files {
            let rounds = Self.coldRounds(of: path)
            var ours: [Double] = []
            var reference: [Double] = []
            for index in 0..<rounds {
                let fetchReference = {
                    try startAfresh(proxy: proxy, cache: cache)
                    return try Self.downloadRate(cache.url("\(path)?cold=\(index)").absoluteString)
                }
                let fetchOurs = {
                    try startAfresh(proxy: proxy, cache: cache)
                    return try Self.downloadRate(proxyURL(proxy, nginx, "\(path)?cold=\(index)"))
                }
                if index.isMultiple(of: 2) {
                    reference.append(try fetchReference())
                    ours.append(try fetchOurs())
                } else {
                    ours.append(try fetchOurs())
                    reference.append(try fetchReference())
                }
            }
            let (proxied, direct) = (Measure.median(of: ours), Measure.median(of: reference))
            Measure.row(
                "\(name): transfer rate", ours: String(format: "%.0f MiB/s", proxied),
                reference: String(format: "%.0f MiB/s", direct), ratio: proxied / direct)
        }
    }

    /// Empties both caches (our entries through the API, nginx's cache files from its
    /// directory) and writes every dirty page back, so that a cold fetch neither runs beside the
    /// last one's write-back nor grows the page cache.
    private func startAfresh(proxy: ServeProcess, cache: Nginx) throws {
        _ = try Tool.run("curl", ["-sf", "-X", "DELETE", proxy.root + "api/entries"])
        let files = FileManager.default.enumerator(atPath: cache.root)
        while let name = files?.nextObject() as? String {
            let path = cache.root + "/" + name
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                try FileManager.default.removeItem(atPath: path)
            }
        }
        _ = try Tool.run("sync", [])
    }

    /// Rounds of the cold row of the file at `path` (one of ``ProxyHitBenchmark/files``): fewer
    /// for the large file, each of whose rounds writes half a gibibyte to the disk.
    private static func coldRounds(of path: String) -> Int {
        path == ProxyHitBenchmark.files[0].0 ? 21 : 9
    }

    /// Fetches `url` whole with curl; MiB per second.
    static func downloadRate(_ url: String) throws -> Double {
        let run = try Tool.run("curl", ["-sf", "-o", "/dev/null", "-w", "%{speed_download}", url])
        guard let bytesPerSecond = Double(run.output) else { throw BenchmarkError("curl \(url): \(run.errorOutput)") }
        return bytesPerSecond / 1_048_576
    }

    /// A fresh server per pass, so each peak is its own; 256 MiB as the small reference.
    private func streamingMemory(nginx: Nginx, directory: TemporaryDirectory) throws {
        let big = Int64(2) << 30
        try Self.writeFile(at: nginx.root + "/big.mp4", length: big)
        var peaks: [String: Int64] = [:]
        var idle: Int64 = 0
        for (name, file) in [("small", "/large.mp4"), ("big", "/big.mp4")] {
            let cache = directory.appending("cache-\(name)")
            for pass in ["cold", "warm"] {
                let proxy = try Self.startProxy(cacheDirectory: cache)
                defer { proxy.stop() }
                idle = max(idle, try proxy.memory().now)
                let fetched = try Tool.run("curl", ["-sf", "-o", "/dev/null", "-w", "%{size_download}", proxyURL(proxy, nginx, file)])
                guard fetched.output == "\(name == "big" ? big : 256 << 20)" else {
                    throw BenchmarkError("streamed \(fetched.output) bytes of \(file)")
                }
                peaks["\(name) \(pass)"] = try proxy.memory().peak
                proxy.stop()
            }
            try? FileManager.default.removeItem(atPath: cache)
        }
        Measure.header(
            "Peak resident memory of `mediacache serve` streaming one file with curl", ours: "2 GiB file",
            reference: "256 MiB file", ratioMeaning: "2 GiB / 256 MiB, 1.00 means memory does not grow with size")
        for pass in ["cold", "warm"] {
            let (ours, reference) = (peaks["big \(pass)"] ?? 0, peaks["small \(pass)"] ?? 0)
            Measure.row(
                "\(pass) (idle server: \(idle >> 20) MiB)", ours: "\(ours >> 20) MiB", reference: "\(reference >> 20) MiB",
                ratio: Double(ours) / Double(reference))
        }
    }

    /// The release `mediacache` built beside the benchmarks, allowed to cache more than the files.
    static func startProxy(cacheDirectory: String, _ arguments: [String] = []) throws -> ServeProcess {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mediacache")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchmarkError("\(binary.path) is missing; run scripts/bench, which builds it")
        }
        return try ServeProcess.start(binary, cacheDirectory: cacheDirectory, ["--max-size", "8G"] + arguments)
    }

    private func proxyURL(_ proxy: ServeProcess, _ nginx: Nginx, _ path: String) -> String {
        "\(proxy.root)http/127.0.0.1:\(nginx.port)\(path)"
    }

    /// Seconds to the first byte of `url`; with `reusingConnection`, of a second request on a
    /// connection whose first request (for `url` with `&first` appended) was answered whole.
    private func timeToFirstByte(_ url: String, reusingConnection: Bool) throws -> Double {
        let urls = reusingConnection ? [url + "&first", url] : [url]
        let arguments = ["-sf", "-w", "%{time_starttransfer}\n"] + urls.flatMap { ["-o", "/dev/null", $0] }
        let run = try Tool.run("curl", arguments)
        guard let seconds = run.output.split(separator: "\n").last.flatMap({ Double($0) }) else {
            throw BenchmarkError("curl \(url): \(run.errorOutput)")
        }
        return seconds
    }

    /// A file of non-zero bytes, written in 1 MiB blocks.
    static func writeFile(at path: String, length: Int64) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw BenchmarkError("cannot create \(path)") }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        for _ in 0..<(length >> 20) { try handle.write(contentsOf: block) }
    }
}

/// A command-line tool run to its end, found on the PATH.
enum Tool {
    static func run(_ name: String, _ arguments: [String]) throws -> CommandRun {
        guard
            let path = ["/usr/bin/", "/usr/local/bin/", "/bin/"].map({ $0 + name })
                .first(where: FileManager.default.isExecutableFile(atPath:))
        else {
            throw BenchmarkError("\(name) is not installed; run scripts/bench, which installs it")
        }
        return try CommandRun.run(path: path, arguments)
    }
}
