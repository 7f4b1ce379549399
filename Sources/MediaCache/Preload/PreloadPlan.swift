import Foundation

/// One resource a preload fetches, in part or whole.
public struct PreloadTarget: Hashable, Sendable {
    /// The resource.
    public var url: URL
    /// The bytes to have cached; `nil` for all of it, to its end, whatever its length.
    public var ranges: ByteRangeSet?

    /// Creates a target.
    public init(url: URL, ranges: ByteRangeSet? = nil) {
        self.url = url
        self.ranges = ranges
    }
}

/// What a preload fetches for an amount of a URL (one resource, or for an HLS playlist the
/// segments, keys and init sections a player starts with), and how it was chosen.
public struct PreloadPlan: Hashable, Sendable {
    /// The resources and bytes to have cached, in the order they are fetched.
    public var targets: [PreloadTarget]
    /// How the amount was mapped, for reports.
    public var method: String
    /// Why a container could not be read and seconds were estimated instead.
    public var containerError: ContainerError?

    /// Creates a plan.
    public init(targets: [PreloadTarget], method: String, containerError: ContainerError? = nil) {
        self.targets = targets
        self.method = method
        self.containerError = containerError
    }

    /// A plan for `ranges` of `url` alone.
    init(_ url: URL, ranges: ByteRangeSet?, method: String, containerError: ContainerError? = nil) {
        self.init(targets: [PreloadTarget(url: url, ranges: ranges)], method: method, containerError: containerError)
    }

    /// Plans `amount` of `url`: bytes as they are, seconds through the container's time index
    /// for MP4 and MP3, and from `assumedBitrate` (bits per second) for other types or when
    /// the container cannot be read.
    static func make(
        for amount: PreloadAmount, of url: URL, loader: MediaLoader, assumedBitrate: Double
    )
        async throws(LoaderError) -> PreloadPlan
    {
        let info = try await loader.contentRecord(for: url, purpose: .preload).contentInfo
        let length = info.totalLength
        func prefix(_ count: Int64) -> ByteRangeSet {
            [ByteRange(0, min(count, length ?? count))]
        }
        switch amount {
        case .bytes(let count):
            return PreloadPlan(url, ranges: prefix(count), method: "first bytes")
        case .full:
            return PreloadPlan(url, ranges: length.map { [ByteRange(0, $0)] }, method: "whole resource")
        case .seconds(let seconds):
            let estimate = prefix(Int64(saturating: seconds * assumedBitrate / 8))
            let method = "estimate at \(Int(assumedBitrate)) bit/s"
            guard let length, let format = ContainerFormat(mimeType: info.mimeType, url: url) else {
                return PreloadPlan(url, ranges: estimate, method: method)
            }
            let source = LoaderByteSource(loader: loader, url: url, length: length, purpose: .preload)
            do {
                let index = try await format.load(from: source)
                return PreloadPlan(url, ranges: index.byteRanges(forFirst: seconds), method: "\(index.format) time index")
            } catch  where error.code == .read && Task.isCancelled {
                throw .cancelled
            } catch {
                loader.configuration.logger.notice("estimating preload bytes", metadata: ["url": "\(url)", "reason": "\(error)"])
                return PreloadPlan(url, ranges: estimate, method: method, containerError: error)
            }
        }
    }
}

/// The containers whose time index the preloader reads.
enum ContainerFormat {
    case mp4, mp3

    init?(mimeType: String?, url: URL) {
        let type = mimeType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        switch (type, url.pathExtension.lowercased()) {
        case ("video/mp4", _), ("audio/mp4", _), ("video/quicktime", _), ("audio/x-m4a", _), ("video/x-m4v", _),
            (_, "mp4"), (_, "m4v"), (_, "m4a"), (_, "mov"):
            self = .mp4
        case ("audio/mpeg", _), ("audio/mp3", _), (_, "mp3"):
            self = .mp3
        default:
            return nil
        }
    }

    func load(from source: some MediaByteSource) async throws(ContainerError) -> any MediaTimeIndex {
        switch self {
        case .mp4: try await MP4Index.load(from: source)
        case .mp3: try await MP3Index.load(from: source)
        }
    }
}
