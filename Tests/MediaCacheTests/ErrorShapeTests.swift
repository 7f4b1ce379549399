import Foundation
import Testing

@testable import MediaCache

/// The public errors and the value types that replaced open enums: what a caller reads of
/// them, and that a name a later version writes survives a round trip.
@Suite(.timeLimit(.minutes(1))) struct ErrorShapeTests {
    let url = URL(string: "https://cdn.example/a.mp4")!
    let key = ResourceKey("https://cdn.example/a.mp4")

    @Test func aLoaderErrorCarriesTheOriginsFailureAndItsStatus() {
        let refused = LoaderError.origin(.status(404, url: url))
        #expect(refused.code == .origin)
        #expect(refused.origin?.status == 404)
        #expect(refused.url == url)
        #expect(refused.store == nil && !refused.isDiskFull)
        #expect("\(refused)" == "origin answered 404 for \(url)")
    }

    @Test func aFullDiskIsClassifiedFromTheFileErrorAndSeenThroughTheLoader() {
        let full = MediaStoreError.file(IOError(operation: "write", path: "1.data", code: ENOSPC), key: key)
        let broken = MediaStoreError.file(IOError(operation: "write", path: "1.data", code: EIO), key: key)
        #expect(full.code == .diskFull && full.isDiskFull && full.key == key && full.ioError?.code == ENOSPC)
        #expect(broken.code == .io && !broken.isDiskFull)
        #expect(LoaderError.store(full).isDiskFull)
        #expect(LoaderError.store(full).store?.key == key)
        #expect(DownloadError.diskFull(full).store?.isDiskFull == true)
    }

    @Test func transportFailuresAndRetryableStatusesAreTransient() {
        #expect(OriginError.transport("reset", url: url, underlying: URLError(.networkConnectionLost)).isTransient)
        for status in [408, 429, 500, 502, 503, 504] { #expect(OriginError.status(status, url: url).isTransient) }
        for status in [400, 403, 404, 416, 501] { #expect(!OriginError.status(status, url: url).isTransient) }
        #expect(!OriginError.invalidResponse("Content-Range starts at 10", url: url).isTransient)
    }

    @Test func errorsCompareByCodeMessageAndResourceNotByTheirCause() {
        let first = OriginError.transport("reset", url: url, underlying: URLError(.networkConnectionLost))
        let second = OriginError.transport("reset", url: url, underlying: CancellationError())
        #expect(first == second)
        #expect(first != OriginError.transport("reset", url: URL(string: "https://cdn.example/b.mp4")!))
        #expect(ContainerError.truncated("stsz") != ContainerError.malformed("stsz"))
    }

    @Test func aSwitchOverACodeTakesItsCasesAndADefault() {
        func advice(_ error: MediaStoreError) -> String {
            switch error.code {
            case .diskFull: "free space"
            case .directoryInUse: "stop the other process"
            default: "\(error.code)"
            }
        }
        #expect(advice(.diskFull(key: nil, underlying: IOError(operation: "write", path: "x", code: ENOSPC))) == "free space")
        #expect(advice(.directoryInUse(path: "/c", ownerPID: 7)) == "stop the other process")
        #expect(advice(.closed) == "closed")
    }

    @Test func namesALaterVersionWritesSurviveARoundTrip() throws {
        let kinds = [AssetPlaylistKind.iFrame, AssetPlaylistKind(rawValue: "steering")]
        let decoded = try JSONDecoder().decode([AssetPlaylistKind].self, from: JSONEncoder().encode(kinds))
        #expect(decoded == kinds)
        #expect(String(decoding: try JSONEncoder().encode(ReadPurpose.preload), as: UTF8.self) == #""preload""#)
        #expect(try JSONDecoder().decode(ReadPurpose.self, from: Data(#""download""#.utf8)) == .download)
    }

    @Test func aRetryPolicyDoublesItsWaitUpToItsMaximumAndAttempts() {
        let policy = RetryPolicy.exponential(attempts: 5, initial: .milliseconds(100), maximum: .milliseconds(300))
        #expect(
            (2...5).map { policy.delay(beforeAttempt: $0) } == [
                .milliseconds(100), .milliseconds(200), .milliseconds(300), .milliseconds(300),
            ])
        #expect(policy.delay(beforeAttempt: 6) == nil)
        #expect(RetryPolicy.never.delay(beforeAttempt: 2) == nil)
    }

    @Test func anEvictionLimitSaysWhichBoundItIs() {
        #expect(EvictionLimit.totalBytes(1 << 30).maximumBytes == 1 << 30)
        #expect(EvictionLimit.age(.seconds(60)).maximumAge == .seconds(60))
        #expect(EvictionLimit.entryCount(10).maximumCount == 10)
        #expect(EvictionLimit.entryCount(10).maximumBytes == nil)
    }
}
