import Foundation

extension MediaLoader {
    /// The time index of `url` when it is an MP4 or MP3 of known length (by its MIME type or
    /// extension), read through this loader, so that what is read stays cached.
    ///
    /// - Throws: ``ContainerError`` when the container cannot be read; `nil` for other types.
    public func timeIndex(of url: URL, purpose: ReadPurpose) async throws -> (any MediaTimeIndex)? {
        let info = try await contentRecord(for: url, purpose: purpose).contentInfo
        guard let length = info.totalLength, let format = ContainerFormat(mimeType: info.mimeType, url: url) else { return nil }
        return try await format.load(from: LoaderByteSource(loader: self, url: url, length: length, purpose: purpose))
    }
}

extension MediaTimeIndex {
    /// The longest time from the start that plays from `available` alone: the largest `seconds`
    /// whose ``byteRanges(forFirst:)`` are all in it, to a hundredth of a second.
    public func playableSeconds(from available: ByteRangeSet) -> Double {
        guard let duration, duration > 0 else { return 0 }
        func plays(_ seconds: Double) -> Bool {
            byteRanges(forFirst: seconds).ranges.allSatisfy { available.gaps(in: $0).isEmpty }
        }
        if plays(duration) { return duration }
        var (low, high) = (0.0, duration)
        while high - low > 0.01 {
            let middle = (low + high) / 2
            if plays(middle) { low = middle } else { high = middle }
        }
        return low
    }
}
