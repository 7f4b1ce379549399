#if !canImport(AVFoundation)
import Testing

/// Code that Apple's current SDK rejects is rejected against the shim, with the same complaint,
/// and code it accepts (the README's among it) compiles: the shim judges isolation and
/// sendability as AVFoundation's declarations do.
@Suite(.timeLimit(.minutes(3))) struct AppleIsolationTests {
    /// Snippets Apple's SDK rejects, with a piece of the error each must give.
    static let rejected: [(name: String, error: String, source: String)] = [
        (
            "a subclass's init(url:) overrides Apple's nonisolated one, and so cannot call the main-actor initializer",
            "call to main actor-isolated initializer 'init(asset:automaticallyLoadedAssetKeys:)' in a synchronous nonisolated context",
            """
            final class Item: AVPlayerItem {
                convenience init(url: URL) {
                    self.init(asset: AVURLAsset(url: url), automaticallyLoadedAssetKeys: nil)
                }
            }
            """
        ),
        (
            "marking that override main-actor isolated is another error",
            "has different actor isolation from nonisolated overridden declaration",
            """
            final class Item: AVPlayerItem {
                @MainActor convenience init(url: URL) {
                    self.init(asset: AVURLAsset(url: url), automaticallyLoadedAssetKeys: nil)
                }
            }
            """
        ),
        (
            "a nonisolated initializer cannot reach the main-actor designated one",
            "call to main actor-isolated initializer 'init(asset:automaticallyLoadedAssetKeys:)' in a synchronous nonisolated context",
            """
            final class Item: AVPlayerItem {
                nonisolated init(movie: URL) {
                    super.init(asset: AVURLAsset(url: movie), automaticallyLoadedAssetKeys: nil)
                }
                required init(asset: AVAsset, automaticallyLoadedAssetKeys: [String]?) {
                    super.init(asset: asset, automaticallyLoadedAssetKeys: automaticallyLoadedAssetKeys)
                }
            }
            """
        ),
        (
            "an item over an asset Swift does not know to be Sendable is made on the main actor",
            "call to main actor-isolated initializer 'init(asset:)' in a synchronous nonisolated context",
            "nonisolated func item(for asset: AVAsset) -> AVPlayerItem { AVPlayerItem(asset: asset) }"
        ),
        (
            "an item's asset is read on the main actor",
            "main actor-isolated property 'asset' can not be referenced from a nonisolated context",
            "nonisolated func asset(of item: AVPlayerItem) -> AVAsset { item.asset }"
        ),
        (
            "an AVAsset is not Sendable: it cannot be sent to another actor",
            "sending 'asset' risks causing data races",
            """
            actor Library { func keep(_ asset: AVAsset) {} }
            @MainActor func share(_ asset: AVAsset, with library: Library) async { await library.keep(asset) }
            """
        ),
    ]

    /// Snippets Apple's SDK accepts.
    static let accepted: [(name: String, source: String)] = [
        (
            "AVPlayerItem(url:), copy, status and the loaded keys are nonisolated; so is AVPlayerItem(asset:) over an AVURLAsset",
            """
            nonisolated func make(_ url: URL) -> AVPlayerItem { AVPlayerItem(url: url) }
            nonisolated func make(over asset: AVURLAsset) -> AVPlayerItem { AVPlayerItem(asset: asset) }
            nonisolated func describe(_ item: AVPlayerItem) -> String {
                "\\(item.status) \\(item.automaticallyLoadedAssetKeys) \\(item.copy())"
            }
            """
        ),
        (
            "an AVURLAsset is Sendable",
            """
            actor Library { func keep(_ asset: AVURLAsset) {} }
            @MainActor func share(_ asset: AVURLAsset, with library: Library) async { await library.keep(asset) }
            """
        ),
        (
            "a subclass overriding init(url:) as nonisolated, through the Sendable-asset initializer",
            """
            final class Item: AVPlayerItem {
                nonisolated convenience init(url: URL) {
                    self.init(asset: AVURLAsset(url: url))
                }
            }
            """
        ),
        (
            "the README's adapter code",
            """
            #if canImport(FoundationNetworking)
            import FoundationNetworking
            #endif
            import MediaCacheAVFoundation

            @MainActor func play(_ videoURL: URL, next: [URL]) {
                let player = AVPlayer(playerItem: CachingPlayerItem(url: videoURL))
                player.automaticallyWaitsToMinimizeStalling = false
                player.replaceCurrentItem(with: CachingPlayerItem(url: videoURL, cache: .shared, automaticallyLoadedAssetKeys: []))
                Task { try? await PlaybackCache.shared.preload(next, amount: .seconds(5)) }
                let controller = CachingQueueController(player: AVQueuePlayer())
                for url in next { controller.append(CachingPlayerItem(url: url)) }
            }

            nonisolated func prepare(_ videoURL: URL) -> [AVPlayerItem] {
                [CachingPlayerItem(url: videoURL), AVPlayerItem(asset: PlaybackCache.shared.asset(for: videoURL))]
            }

            @MainActor func configure(_ session: URLSession, filmURL: URL, token: String, player: AVPlayer) async throws {
                var configuration = PlaybackCache.Configuration()
                configuration.session = session
                let cache = PlaybackCache(configuration: configuration)
                player.replaceCurrentItem(with: CachingPlayerItem(url: filmURL, cache: cache, headers: ["Authorization": "Bearer \\(token)"]))
                player.replaceCurrentItem(with: cache.item(for: filmURL, on: player))
                await cache.verifyProxy()
                let downloads = ForegroundAssetDownloadSession(cache: cache, delegate: nil)
                let task = try await downloads.makeAssetDownloadTask(downloadConfiguration: .init(url: filmURL, title: "Film"))
                try await task.resume()
                try await downloads.removeDownload(of: filmURL)
            }
            """
        ),
    ]

    @Test(arguments: rejected.indices) func codeAppleRejectsIsRejected(_ index: Int) throws {
        let snippet = Self.rejected[index]
        let errors = try SwiftSnippet(Self.header + snippet.source).errors()
        #expect(errors.contains { $0.contains(snippet.error) }, "\(snippet.name): \(errors)")
    }

    @Test(arguments: accepted.indices) func codeAppleAcceptsCompiles(_ index: Int) throws {
        let snippet = Self.accepted[index]
        let errors = try SwiftSnippet(Self.header + snippet.source).errors()
        #expect(errors.isEmpty, "\(snippet.name): \(errors)")
    }

    private static let header = "import AVFoundationShim\nimport Foundation\n"
}
#endif
