import ArgumentParser
import Foundation
import MediaCache
import MediaCacheAPI
import MediaCacheHLS
import MediaCacheServer

/// `mediacache download`: downloads an HLS presentation (with a selection) or a file for
/// offline playback, through the running server when one owns the directory.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download", abstract: "Download an HLS presentation or a file for offline playback.",
        discussion: "Prints the estimate, then progress (on standard error), and exits 0 once everything selected is stored and pinned. "
            + "Running it again for the same URL adds the new selections. Ctrl-C leaves the download paused; "
            + "`mediacache downloads resume` (or this command again) goes on where it stopped.")

    @Argument(help: ArgumentHelp("The playlist or file URL.", valueName: "url"))
    var url: String

    @Option(help: "A title for the download (default: the file name).")
    var title: String?

    @Option(help: "highest (default), lowest, bits per second (3000000) or a resolution (1280x720).")
    var variant: String?

    @Option(help: "Audio renditions: default (default), all, none, or languages (en,de).")
    var audio: String?

    @Option(help: "Subtitles: none (default), default, all, or languages (en,fr).")
    var subtitles: String?

    @Flag(help: "Return once the download is queued, printing its id.")
    var noWait = false

    @Flag(help: "Print the download's report as JSON when it ends.")
    var json = false

    @OptionGroup var cache: CacheDirectoryOptions

    var request: DownloadRequest {
        DownloadRequest(url: url, title: title, variant: variant, audio: audio, subtitles: subtitles)
    }

    func validate() throws {
        do {
            _ = try OriginURL.check(url)
            _ = try request.checkedSelection()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        let origin = try OriginURL.check(url)
        let session = try await DownloadSession.open(cache, fetching: true)
        let interrupt = Interrupt()
        let final: DownloadReport
        do {
            var report = try await start(in: session, url: origin)
            if ["paused", "failed"].contains(report.state) {
                // Asked for again: go on where it stopped.
                _ = try await session.change(report.id, .resume)
                report = try await session.reports().first { $0.id == report.id } ?? report
            }
            if noWait {
                print(report.id)
                try await session.close()
                return
            }
            let progress = DownloadProgress(isTerminal: Output.progressIsTerminal, directory: cache.directory)
            while !["completed", "failed", "paused"].contains(report.state) {
                if interrupt.happened {
                    _ = try await session.change(report.id, .pause)
                    progress.end("paused; resume with: mediacache downloads resume \(report.id)")
                    try await session.close()
                    throw ExitCode(130)
                }
                progress.show(report)
                try await Task.sleep(for: .milliseconds(200))
                report = try await session.reports().first { $0.id == report.id } ?? report
            }
            progress.show(report)
            progress.end(report.error.map { "failed: \($0)" } ?? report.state)
            final = report
        } catch {
            try? await session.close()
            throw error
        }
        try await session.close()
        if json { print(try Output.json(final)) }
        guard final.state == "completed" else { throw ExitCode(1) }
    }
}

extension DownloadCommand {
    /// Starts the download; a selection the presentation cannot meet (a language it lacks) ends
    /// the command with 64 and what the presentation has, as a bad argument does.
    private func start(in session: DownloadSession, url: URL) async throws -> DownloadReport {
        do {
            return try await session.start(request, url: url, selection: try request.checkedSelection())
        } catch let error as DownloadSelectionError {
            Output.error("mediacache: \(error)")
            throw ExitCode(64)
        } catch let error as ProxyClientError where error.status == 400 {
            Output.error("mediacache: \(error.message)")
            throw ExitCode(64)
        }
    }
}

/// SIGINT noted instead of ending the process, so that a foreground download is paused.
final class Interrupt {
    private let source: DispatchSourceSignal
    private let flag = Locked(false)

    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT)
        let flag = flag
        source.setEventHandler { flag.withLock { $0 = true } }
        source.resume()
    }

    var happened: Bool { flag.withLock { $0 } }
}
