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
            + "every track) and estimated from a bitrate for other types. An HLS playlist preloads what a player starts "
            + "with: every playlist, then the segments of those seconds of the first variant (or the best within "
            + "--bandwidth) and its default audio and subtitles. Without an amount, 10 seconds.")

    @Argument(help: ArgumentHelp("The http or https URLs to preload.", valueName: "url"))
    var urls: [String]

    @Option(
        parsing: .unconditional, help: "Preload this many seconds of each, above 0 and up to 86400.",
        transform: CheckedOptions.preloadSeconds)
    var seconds: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Preload this many bytes of each, 1 B to 1 PiB, e.g. 512K or 2M.",
            valueName: "size"),
        transform: CheckedOptions.size("--bytes"))
    var bytes: ByteSize?

    @Flag(help: "Preload each whole.")
    var full = false

    @Option(
        parsing: .unconditional, help: "Rank against other preloads, -1000 to 1000; higher runs first.",
        transform: CheckedOptions.priority)
    var priority = 0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "For HLS, choose the best variant within this many bits per second (default: the first listed).", valueName: "bps"),
        transform: CheckedOptions.bandwidth)
    var bandwidth: Int?

    @OptionGroup var cache: CacheDirectoryOptions

    var amount: PreloadAmount {
        if let seconds { return .seconds(seconds) }
        if let bytes { return .bytes(bytes.bytes) }
        return full ? .full : .standard
    }

    func validate() throws {
        let given = [seconds != nil, bytes != nil, full].filter { $0 }.count
        guard given <= 1 else { throw ValidationError("give at most one of --seconds, --bytes and --full") }
        for url in urls {
            do {
                try OriginURL.check(url)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    func run() async throws {
        let session = try PreloadSession.open(cache)
        let display = ProgressDisplay(isTerminal: Output.progressIsTerminal)
        let final: [PreloadJob]
        do {
            let started = try await session.start(
                urls.compactMap { try? OriginURL.check($0) }, amount: amount, priority: priority,
                maximumBandwidth: bandwidth)
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
            Output.error("mediacache: \(failed.count) of \(final.count) preloads did not finish")
            throw ExitCode(1)
        }
    }
}
