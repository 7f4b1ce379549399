import ArgumentParser
import Foundation
import MediaCacheAPI
import MediaCacheServer

/// `mediacache downloads`: lists downloads, or pauses, resumes or removes them.
struct DownloadsCommand: AsyncParsableCommand {
    /// What to do with the named downloads.
    enum Action: String, ExpressibleByArgument, CaseIterable {
        case pause, resume, remove
    }

    static let configuration = CommandConfiguration(
        commandName: "downloads", abstract: "List offline downloads, or pause, resume or remove them.")

    @Argument(help: ArgumentHelp("pause, resume or remove; none lists.", valueName: "action"))
    var action: Action?

    @Argument(help: ArgumentHelp("The downloads' ids or URLs.", valueName: "id-or-url"))
    var names: [String] = []

    @Flag(help: "Print the list as JSON.")
    var json = false

    @OptionGroup var cache: CacheDirectoryOptions

    func validate() throws {
        if action != nil, names.isEmpty { throw ValidationError("name the downloads to \(action!.rawValue) by id or URL") }
        if action == nil, !names.isEmpty { throw ValidationError("give pause, resume or remove before the downloads") }
    }

    func run() async throws {
        let session = try await DownloadSession.open(cache, fetching: false)
        do {
            if let action {
                for name in names { print(try await session.change(name, action)) }
            } else {
                let reports = try await session.reports()
                print(json ? try Output.json(reports) : Self.table(reports))
            }
        } catch {
            try? await session.close()
            throw error
        }
        try await session.close()
    }

    static func table(_ reports: [DownloadReport]) -> String {
        guard !reports.isEmpty else { return "No downloads." }
        let rows = reports.map { report in
            [
                report.id.prefix(8).description,
                report.state,
                Output.bytes(report.bytesOnDisk)
                    + (report.expectedBytes.map { " of \(report.expectedIsEstimate ? "~" : "")\(Output.bytes($0))" } ?? ""),
                report.durationSeconds > 0 ? String(format: "%.0f/%.0f s", report.loadedSeconds, report.durationSeconds) : "",
                report.playableOffline ? "yes" : "no",
                report.title,
                report.url + (report.error.map { "  (\($0))" } ?? ""),
            ]
        }
        return Output.table(header: ["ID", "STATE", "BYTES", "SECONDS", "OFFLINE", "TITLE", "URL"], rows: rows)
    }
}
