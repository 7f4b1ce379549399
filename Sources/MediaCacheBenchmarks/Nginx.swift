import Foundation
import MediaCacheTesting

/// An nginx of the benchmark's own on loopback (sendfile on), serving a directory: the fair
/// reference for "as fast as a static file server".
struct Nginx {
    let port: Int
    let root: String
    private let process: Process

    /// Starts nginx serving `root`; its configuration and logs live in `workDirectory`.
    static func start(root: String, workDirectory: String) throws -> Nginx {
        try start(root: root, workDirectory: workDirectory) { port in "server { listen 127.0.0.1:\(port); root \(root); }" }
    }

    /// Starts nginx as a caching reverse proxy in front of `originPort` with the slice module
    /// (`slice 1m`, `proxy_cache_lock on`): the common way to cache ranged media with nginx. The
    /// cache lives in `workDirectory/slice-cache`.
    static func startSliceCache(originPort: Int, workDirectory: String) throws -> Nginx {
        try startCache(
            originPort: originPort, workDirectory: workDirectory, name: "slice-cache",
            keying: """
                slice 1m;
                proxy_cache_key $uri$slice_range;
                proxy_set_header Range $slice_range;
                """)
    }

    /// Starts nginx as a plain caching reverse proxy in front of `originPort` (`proxy_cache`,
    /// one entry per URL with its query, `proxy_cache_lock on`). The cache lives in
    /// `workDirectory/proxy-cache`.
    static func startProxyCache(originPort: Int, workDirectory: String) throws -> Nginx {
        try startCache(
            originPort: originPort, workDirectory: workDirectory, name: "proxy-cache",
            keying: "proxy_cache_key $uri$is_args$args;")
    }

    private static func startCache(originPort: Int, workDirectory: String, name: String, keying: String) throws -> Nginx {
        let cache = workDirectory + "/" + name
        return try start(
            root: cache, workDirectory: workDirectory,
            extra: """
                proxy_cache_path \(cache) levels=1:2 keys_zone=media:10m max_size=8g inactive=1d use_temp_path=off;
                """
        ) { port in
            """
            server {
                listen 127.0.0.1:\(port);
                location / {
                    \(keying)
                    proxy_cache media;
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    proxy_cache_valid 200 206 1d;
                    proxy_cache_lock on;
                    proxy_pass http://127.0.0.1:\(originPort);
                }
            }
            """
        }
    }

    private static func start(
        root: String, workDirectory: String, extra: String = "",
        server: (Int) -> String
    ) throws -> Nginx {
        let port = try freePort()
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            error_log \(workDirectory)/nginx-error.log;
            pid \(workDirectory)/nginx.pid;
            events { worker_connections 256; }
            http {
                access_log off;
                sendfile on;
                default_type application/octet-stream;
                \(extra)
                \(server(port))
            }
            """
        let path = workDirectory + "/nginx.conf"
        try configuration.write(toFile: path, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments = ["-c", path, "-p", workDirectory]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let nginx = Nginx(port: port, root: root, process: process)
        try nginx.waitUntilListening()
        return nginx
    }

    /// nginx's one process (no master process, one worker).
    var pid: pid_t { process.processIdentifier }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops nginx: SIGTERM, then SIGKILL after two seconds. Polls rather than
    /// `waitUntilExit()`, which can hang when called from a task on Linux.
    func stop() {
        process.terminate()
        for _ in 0..<100 where process.isRunning {
            usleep(20_000)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    private static func executable() throws -> String {
        for candidate in ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx", "/opt/homebrew/bin/nginx"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw BenchmarkError("nginx is not installed; run scripts/bench, which installs it")
    }

    private func waitUntilListening() throws {
        for _ in 0..<100 {
            if Self.canConnect(port: port) { return }
            usleep(20_000)
        }
        throw BenchmarkError("nginx did not start on port \(port)")
    }

    private static func canConnect(port: Int) -> Bool {
        let socket = LoopbackSocket()
        defer { socket.close() }
        return socket.connect(port: port)
    }

    private static func freePort() throws -> Int {
        let socket = LoopbackSocket()
        defer { socket.close() }
        guard let port = socket.bindToFreePort() else { throw BenchmarkError("no free loopback port") }
        return port
    }
}

/// A failure that stops a benchmark, with what to do about it.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
