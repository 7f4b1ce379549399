import Foundation
import MediaCache
import MediaCacheTesting

/// A store in a directory of its own, with helpers to fill it with pattern bytes.
struct StoreFixture {
    let directory: TemporaryDirectory
    var configuration: MediaStore.Configuration

    init(configure: (inout MediaStore.Configuration) -> Void = { _ in }) throws {
        directory = try TemporaryDirectory()
        configuration = MediaStore.Configuration()
        configuration.eviction = .unlimited
        configure(&configuration)
    }

    func open() throws -> MediaStore {
        try MediaStore.open(at: directory.path, configuration: configuration)
    }

    static func url(_ name: String) -> URL {
        URL(string: "https://origin.test/media/\(name)")!
    }

    /// Registers `name` with `length` bytes and writes `ranges` of its pattern.
    @discardableResult
    static func fill(
        _ store: MediaStore, _ name: String, length: Int64, ranges: [ByteRange], etag: String = "\"v1\""
    ) throws -> (ResourceKey, Generation) {
        let url = url(name)
        let generation = try store.setContentInfo(
            ContentInfo(totalLength: length, mimeType: "video/mp4", etag: etag), for: url)
        let key = store.key(for: url)
        for range in ranges {
            try store.write(pattern(name, range, etag: etag), at: range.lowerBound, to: key, generation: generation)
        }
        return (key, generation)
    }

    static func pattern(_ name: String, _ range: ByteRange, etag: String = "\"v1\"") -> Data {
        TestPattern.data(offset: range.lowerBound, length: Int(range.length), seed: TestPattern.seed(name + etag))
    }
}
