import ArgumentParser

/// `mediacache`: the caching proxy and the tools to inspect and manage its cache.
@main
struct MediaCacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mediacache",
        abstract: "Cache streamed media on disk and serve it to any player.",
        subcommands: [
            ServeCommand.self, PreloadCommand.self, DownloadCommand.self, DownloadsCommand.self, URLCommand.self, ListCommand.self,
            RemoveCommand.self, PinCommand.self, UnpinCommand.self, ClearCommand.self,
            StatsCommand.self,
        ]
    )
}
