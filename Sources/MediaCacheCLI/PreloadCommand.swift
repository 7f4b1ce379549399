import ArgumentParser
import Foundation
import MediaCache
import MediaCacheHTTP
import MediaCacheServer

/// `mediacache preload`: fetches the start (or all) of resources into the cache, through the
/// running server when one owns the directory.
struct PreloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preload", abstract: "Preload resources so that they start at once, also offline.",
        discussion: "Seconds are mapped through the container for MP4 and MP3 (header boxes plus those seconds of "
            + "every track) and estimated from a bitrate for other types. Without an amount, 10 seconds.")

    @Argument(help: ArgumentHelp("The http or https URLs to preload.", valueName: "url"))
    var urls: [String]

    @Option(help: "Preload this many seconds of each.")
    var seconds: Double?

    @Option(help: ArgumentHelp("Preload this many bytes of each, e.g. 512K or 2M.", valueName: "size"))
    var bytes: ByteCount?

    @Flag(help: "Preload each whole.")
    var full = false

    @Option(help: "Rank against other preloads; higher runs first.")
    var priority = 0

    @OptionGroup var cache: CacheDirectoryOptions

    var amount: PreloadAmount {
        if let seconds { return .seconds(seconds) }
        if let bytes { return .bytes(bytes.bytes) }
        return full ? .full : .seconds(10)
    }

    func validate() throws {
        let given = [seconds != nil, bytes != nil, full].filter { $0 }.count
        guard given <= 1 else { throw ValidationError("give at most one of --seconds, --bytes and --full") }
        guard amount.isValid else { throw ValidationError("--seconds must be a positive number") }
        for url in urls where PreloadRequest.url(from: url) == nil {
            throw ValidationError("\(url) is not an http or https URL")
        }
    }

    func run() async throws {
        let session = try PreloadSession.open(cache)
        let display = ProgressDisplay(isTerminal: isatty(STDOUT_FILENO) != 0)
        let final: [PreloadJob]
        do {
            let started = try await session.start(urls.compactMap(PreloadRequest.url(from:)), amount: amount, priority: priority)
            let keys = Set(started.map(\.key))
            var jobs = started
            while true {
                display.show(jobs)
                if jobs.allSatisfy(\.state.isFinal) { break }
                try await Task.sleep(for: .milliseconds(200))
                jobs = try await session.jobs().filter { keys.contains($0.key) }
            }
            final = jobs
        } catch {
            try? await session.close()
            throw error
        }
        try await session.close()
        let failed = final.filter { $0.state != .finished }
        guard failed.isEmpty else {
            FileHandle.standardError.write(Data("mediacache: \(failed.count) of \(final.count) preloads did not finish\n".utf8))
            throw ExitCode(1)
        }
    }
}
