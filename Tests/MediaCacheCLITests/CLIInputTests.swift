import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheServer
import MediaCacheTesting
import Testing

/// What the `mediacache` binary does with values a new user gets wrong, and the commands a new
/// user expects, without a server.
@Suite(.timeLimit(.minutes(2))) struct CLIInputTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func mediacache(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandRun {
        try CommandRun.run("mediacache", arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// Stores the first `cached` bytes of a `length`-byte resource in the directory; its URL.
    func storeEntry(length: Int64, cached: Int) throws -> URL {
        let store = try MediaStore.open(at: directory.path)
        let url = URL(string: "https://origin.test/a.mp4")!
        let generation = try store.setContentInfo(ContentInfo(totalLength: length, mimeType: "video/mp4"), for: url)
        try store.write(Data(count: cached), at: 0, to: store.key(for: url), generation: generation)
        try store.close()
        return url
    }

    @Test(arguments: [
        (["serve", "--max-size", "99999999999T"], "from 1 B to 1 PiB"),
        (["serve", "--max-size", "9999999999G"], "from 1 B to 1 PiB"),
        (["serve", "--max-size", "12Q"], "K, M, G, T, P"),
        (["serve", "--max-age", "99999999999999999d"], "from 1s to 36500d"),
        (["serve", "--max-age", "12y"], "s, m, h, d"),
        (["serve", "--port", "99999"], "from 0 to 65535"),
        (["serve", "--port", "-1"], "from 0 to 65535"),
        (["serve", "--shutdown-grace", "1e18"], "up to 3600"),
        (["serve", "--playlist-max-age", "-1"], "--playlist-max-age"),
        (["serve", "--max-connections", "0"], "from 1 to 1000000"),
        (["serve", "--idle-timeout", "0"], "above 0 up to 86400"),
        (["serve", "--send-timeout", "1e18"], "above 0 up to 86400"),
        (["serve", "--request-timeout", "-1"], "--request-timeout"),
        (["preload", "--bandwidth", "0", "http://127.0.0.1:9/a"], "--bandwidth"),
        (["serve", "--allow-host", "127.0.0.1:99999"], "not a host pattern"),
        (["serve", "--allow-host", "https://cdn.example.com"], "not a host pattern"),
        (["serve", "--allow-host", ""], "an empty host is not a host pattern"),
        (["serve", "--ignore-query", "token,_HLS_msn"], "_HLS_msn is an LL-HLS delivery directive"),
        (["serve", "--cors-origin", "*"], "'*' is not a web origin"),
        (["serve", "--cors-origin", "https://app.example/page"], "is not a web origin"),
        (["serve", "--live-outage", "0"], "--live-outage"),
        (["serve", "--token", "short"], "at least 8 characters"),
        (["preload", "--bytes", "99999999999T", "http://127.0.0.1:9/a"], "from 1 B to 1 PiB"),
        (["preload", "--seconds", "1e18", "http://127.0.0.1:9/a"], "above 0 up to 86400"),
        (["preload", "--seconds", "-1", "http://127.0.0.1:9/a"], "above 0 up to 86400"),
        (["preload", "--priority", "99999999999999999999", "http://127.0.0.1:9/a"], "from -1000 to 1000"),
        (["preload", "http://user:pw@127.0.0.1:9/a"], "user name or password"),
        (["url", "--token", "short", "http://cdn.example/a.mp4"], "at least 8 characters"),
        (["url", "http://user:pw@cdn.example/a.mp4"], "user name or password"),
        (["url", "ftp://cdn.example/a.mp4"], "not an http or https URL"),
        (["url", "cdn.example/a.mp4"], "not an absolute URL"),
        (["url", "http://cdn.example:84430/a.mp4"], "a port is 1 to 65535"),
        (["serve", "--encrypt-key-file", "/nonexistent/cache.key"], "cannot read the key file /nonexistent/cache.key"),
        (["ls", "--encrypt-key-file", "/nonexistent/cache.key"], "--encrypt-key-file: cannot read the key file"),
    ])
    func valuesOutOfRangeAreRefusedWithWhatIsAccepted(_ arguments: [String], _ accepted: String) throws {
        defer { directory.remove() }
        let run = try mediacache(arguments + ["--cache-dir", directory.path])
        #expect(run.status == 64, "\(arguments): \(run.errorOutput)")
        #expect(run.errorOutput.contains(accepted), "\(arguments): \(run.errorOutput)")
        #expect(!run.errorOutput.contains("Fatal error"))
        #expect(!run.errorOutput.contains(":pw@"), "a refused password is not repeated")
        #expect(!FileManager.default.fileExists(atPath: directory.appending("index.sqlite")), "nothing was opened")
    }

    @Test func serveHelpShowsTheDefaultSizeLimit() throws {
        defer { directory.remove() }
        let help = try mediacache(["serve", "--help"])
        #expect(help.output.contains("(default: 1G)"), "\(help.output)")
        #expect(help.output.contains("--shutdown-grace"))
    }

    @Test func aTildeInTheCacheDirectoryIsTheHomeDirectoryEverywhere() throws {
        defer { directory.remove() }
        let home = ["HOME": directory.path]
        let listed = try mediacache(["ls", "--cache-dir=~/cache"], environment: home)
        #expect(listed.status == 0, "\(listed.errorOutput)")
        #expect(listed.output.contains("The cache at \(directory.path)/cache is empty."))
        #expect(FileManager.default.fileExists(atPath: directory.appending("cache/index.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: "~"), "no literal ~ directory")
    }

    @Test func pinAndUnpinChangeWhetherAnEntryIsEvicted() throws {
        defer { directory.remove() }
        let url = try storeEntry(length: 100, cached: 100)
        let pinned = try mediacache(["pin", url.absoluteString, "--cache-dir", directory.path])
        #expect(pinned.status == 0, "\(pinned.errorOutput)")
        #expect(pinned.output == "pinned \(url.absoluteString)\n")
        #expect(try mediacache(["ls", "--cache-dir", directory.path]).output.contains("pinned"))
        #expect(try mediacache(["clear", "--cache-dir", directory.path]).output.contains("removed 0 resources"))
        #expect(try mediacache(["unpin", url.absoluteString, "--cache-dir", directory.path]).output == "unpinned \(url.absoluteString)\n")
        #expect(try mediacache(["clear", "--cache-dir", directory.path]).output.contains("removed 1 resource"))
        let unknown = try mediacache(["pin", url.absoluteString, "--cache-dir", directory.path])
        #expect(unknown.status == 1)
        #expect(unknown.errorOutput == "Error: no cached resource \(url.absoluteString)\n")
    }

    @Test func statsAsJSONHasOneShapeWithOrWithoutAServer() throws {
        defer { directory.remove() }
        let stats = try mediacache(["stats", "--json", "--cache-dir", directory.path])
        #expect(stats.status == 0)
        #expect(stats.output.contains(#""statistics":null"#), "\(stats.output)")
    }

    @Test func aCachePathThatCannotBeADirectoryIsNamedWithTheSystemsReason() throws {
        defer { directory.remove() }
        #expect(FileManager.default.createFile(atPath: directory.appending("file"), contents: Data()))
        let run = try mediacache(["ls", "--cache-dir", directory.appending("file/cache")])
        #expect(run.status == 1)
        #expect(run.errorOutput.contains("\(directory.path)/file: Not a directory"), "\(run.errorOutput)")
    }

    @Test func aCacheTheUserMayReadButNotWriteIsListed() throws {
        defer { directory.remove() }
        let url = try storeEntry(length: 1000, cached: 400)
        let executable = BuiltProducts.executable(named: "mediacache").path
        func asReader(_ arguments: [String]) throws -> CommandRun {
            if getuid() == 0 {
                // Root may write anything: run as an unprivileged user instead.
                return try CommandRun.run(path: Tools.require("runuser"), ["-u", "nobody", "--", executable] + arguments)
            }
            return try CommandRun.run(path: executable, arguments)
        }
        if getuid() != 0 { chmod(directory.path, 0o555) }
        defer { chmod(directory.path, 0o755) }
        let listed = try asReader(["ls", "--json", "--cache-dir", directory.path])
        #expect(listed.status == 0, "\(listed.errorOutput)")
        let entries = try APIJSON.decoder().decode([EntryReport].self, from: Data(listed.output.utf8))
        #expect(entries.map(\.cachedRanges) == [[ByteRange(0, 400)]])
        let stats = try asReader(["stats", "--cache-dir", directory.path])
        #expect(stats.status == 0, "\(stats.errorOutput)")
        #expect(stats.output.contains("400 B"))
        let removal = try asReader(["rm", url.absoluteString, "--cache-dir", directory.path])
        #expect(removal.status == 1)
        #expect(removal.errorOutput.contains("Permission denied"), "\(removal.errorOutput)")
    }
}
