import Foundation
import MediaCache
import MediaCacheTesting
import Testing

/// HLS assets in the store: recorded from their playlists, listed with the seconds cached per
/// playlist, removed whole (minus what another asset shares), and evicted member by member
/// while what every member needs to play stays.
@Suite(.timeLimit(.minutes(2))) struct AssetStoreTests {
    static let base = "https://cdn.test/film/"

    static func url(_ path: String) -> URL { URL(string: base + path)! }

    /// Stores `length` bytes of `path` in full.
    static func store(_ store: MediaStore, _ path: String, length: Int64 = 1_000) throws {
        let generation = try store.setContentInfo(ContentInfo(totalLength: length, etag: "\"1\""), for: url(path))
        try store.write(
            TestPattern.data(offset: 0, length: Int(length), seed: 1), at: 0, to: store.key(for: url(path)),
            generation: generation)
    }

    static func segments(_ prefix: String, count: Int) -> [AssetMember] {
        [AssetMember(url: url("key.bin"), role: .key), AssetMember(url: url("\(prefix)/init.mp4"), role: .initSection)]
            + (0..<count).map { AssetMember(url: url("\(prefix)/s\($0).m4s"), role: .segment, duration: 4) }
    }

    /// Records a film with two variants and an audio rendition, and stores its playlists,
    /// key, init sections and the first `played` segments of the 720p variant.
    static func film(in store: MediaStore, played: Int) throws {
        try store.recordAsset(
            url("master.m3u8"),
            playlists: [
                AssetPlaylist(url: url("720/index.m3u8"), kind: .variant, name: "1280x720 2.5 Mbit/s"),
                AssetPlaylist(url: url("360/index.m3u8"), kind: .variant, name: "640x360 0.8 Mbit/s"),
                AssetPlaylist(url: url("en/index.m3u8"), kind: .audio, name: "English (en)"),
            ])
        for path in ["master.m3u8", "720/index.m3u8", "key.bin", "720/init.mp4"] { try Self.store(store, path, length: 100) }
        try store.recordPlaylist(url("720/index.m3u8"), generation: .initial, members: segments("720", count: 10))
        for number in 0..<played { try Self.store(store, "720/s\(number).m4s") }
    }

    @Test func anAssetListsItsPlaylistsWithTheSecondsCached() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        defer { try? store.close() }
        try Self.film(in: store, played: 3)

        let asset = try #require(try store.assets().first)
        #expect(asset.key == store.key(for: Self.url("master.m3u8")))
        #expect(asset.playlists.map(\.kind) == [.variant, .variant, .audio])
        let hd = asset.playlists[0]
        #expect(hd.seconds == 40 && hd.cachedSeconds == 12, "three of ten 4-second segments")
        #expect(hd.cachedBytes == 100 + 100 + 100 + 3 * 1_000, "its playlist, key, init section and three segments")
        #expect(asset.playlists[1].seconds == 0, "a variant never played has no segments recorded")
        #expect(asset.cachedBytes == 100 * 4 + 3 * 1_000)
        #expect(asset.memberKeys.count == 1 + 3 + 2 + 10)

        try store.recordPlaylist(Self.url("720/index.m3u8"), generation: .initial, members: Self.segments("720", count: 20))
        #expect(try store.assets().first?.playlists[0].seconds == 40, "a generation is recorded once")
        try store.close()
        let reopened = try fixture.open()
        #expect(try reopened.assets().first?.playlists[0].cachedSeconds == 12, "assets survive reopening")
        try reopened.close()
    }

    @Test func aMediaPlaylistPlayedAloneJoinsItsMultivariantPlaylistLater() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        defer { try? store.close() }
        try store.recordPlaylist(Self.url("720/index.m3u8"), generation: .initial, members: Self.segments("720", count: 2))
        #expect(try store.assets().map(\.playlists.first?.kind) == [.media])
        try store.recordAsset(
            Self.url("master.m3u8"),
            playlists: [
                AssetPlaylist(url: Self.url("720/index.m3u8"), kind: .variant, name: "720p")
            ])
        let assets = try store.assets()
        #expect(assets.count == 1)
        #expect(assets.first?.playlists.first?.seconds == 8, "the members moved with it")
    }

    @Test func removingAnAssetRemovesItsResourcesButNotWhatAnotherShares() throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        defer { try? store.close() }
        try Self.film(in: store, played: 2)
        try Self.store(store, "unrelated.mp4")
        try store.recordPlaylist(
            Self.url("trailer.m3u8"), generation: .initial,
            members: [AssetMember(url: Self.url("key.bin"), role: .key)])

        let removed = try store.removeAsset(store.key(for: Self.url("master.m3u8")))
        #expect(
            Set(removed.map(\.rawValue))
                == Set(
                    ["master.m3u8", "720/index.m3u8", "720/init.mp4", "720/s0.m4s", "720/s1.m4s"]
                        .map { Self.base + $0 }))
        #expect(Set(try store.entries().map(\.url)) == [Self.base + "unrelated.mp4", Self.base + "key.bin"])
        #expect(try store.assets().map(\.url) == [Self.base + "trailer.m3u8"])
    }

    @Test func evictionTakesOldSegmentsAndKeepsWhatTheRestNeedsToPlay() throws {
        let clock = ManualClock()
        let fixture = try StoreFixture { $0.clock = clock }
        defer { fixture.directory.remove() }
        let store = try fixture.open()
        defer { try? store.close() }
        try Self.film(in: store, played: 0)
        for number in 0..<10 {
            clock.advance(by: .seconds(10))
            try Self.store(store, "720/s\(number).m4s")
        }
        try store.commit()
        // 400 bytes of playlists, key and init section, 10,000 of segments: room for 6 segments.
        var limited = fixture
        limited.configuration.eviction = EvictionPolicy([.totalBytes(6_400)])
        try store.close()
        let reopened = try limited.open()
        defer { try? reopened.close() }
        let left = Set(try reopened.entries().map { $0.url.replacingOccurrences(of: Self.base, with: "") })
        #expect(
            left == Set(["master.m3u8", "720/index.m3u8", "key.bin", "720/init.mp4"] + (4..<10).map { "720/s\($0).m4s" }),
            "the oldest segments went; the playlists, key and init section stayed although older")
    }
}
