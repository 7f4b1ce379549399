#if canImport(AVFoundation)
import AVFoundation
import Foundation
import MediaCache
import MediaCacheAVFoundation
import MediaCacheTesting
import MediaCacheURLSession
import Testing

/// The adapter against Apple's own AVFoundation (macOS, in the Apple workflow): an asset loads
/// through the resource loader from the test origin, and again offline from the cache.
@Suite(.timeLimit(.minutes(3))) struct RealAVFoundationTests {
    @Test func aCachingAssetLoadsItsDurationThroughTheCacheAndAgainOffline() async throws {
        let origin = try await TestOrigin.start()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let movie = try await TestMedia.faststartMP4(seconds: 4).make(in: directory.path)
        origin.serve("/clip.mp4", content: .data(movie, mimeType: "video/mp4"))
        var configuration = PlaybackCache.Configuration()
        configuration.directory = directory.path + "/cache"
        configuration.session = URLSession(configuration: .ephemeral)
        let cache = PlaybackCache(configuration: configuration)

        let duration = try await CachingURLAsset(url: origin.url("/clip.mp4"), cache: cache).load(.duration)
        #expect(abs(duration.seconds - 4) < 0.2, "\(duration.seconds) s")
        try await origin.stop()
        let offline = try await CachingURLAsset(url: origin.url("/clip.mp4"), cache: cache).load(.duration)
        #expect(offline == duration, "offline, from the cache")
        try await cache.close()
    }
}
#endif
