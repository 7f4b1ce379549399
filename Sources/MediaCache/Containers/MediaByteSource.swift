import Foundation

/// Random access to the bytes of one resource, for container parsers.
public protocol MediaByteSource: Sendable {
    /// The resource's length in bytes.
    var length: Int64 { get }
    /// The bytes of `range`, which lies within ``length``.
    func bytes(in range: ByteRange) async throws -> Data
}

/// Bytes in memory, for parsing a file at hand.
public struct DataByteSource: MediaByteSource {
    /// The bytes.
    public let data: Data

    /// Creates a source over `data`.
    public init(_ data: Data) {
        self.data = data
    }

    public var length: Int64 { Int64(data.count) }

    public func bytes(in range: ByteRange) async throws -> Data {
        data.subdata(in: data.startIndex + Int(range.lowerBound)..<data.startIndex + Int(range.upperBound))
    }
}

/// A resource read through a ``MediaLoader``, with the given purpose: what the parser reads is
/// cached like any other read.
struct LoaderByteSource: MediaByteSource {
    let loader: MediaLoader
    let url: URL
    let length: Int64
    let purpose: ReadPurpose

    func bytes(in range: ByteRange) async throws -> Data {
        var data = Data(capacity: Int(range.length))
        for try await chunk in loader.read(url, ByteRequest(range), purpose: purpose) {
            data.append(chunk.bytes)
        }
        return data
    }
}

extension MediaByteSource {
    /// The bytes of `range`, clipped to the resource, as a container error when reading fails.
    func read(_ range: ByteRange) async throws(ContainerError) -> Data {
        let clipped = ByteRange(min(range.lowerBound, length), min(range.upperBound, length))
        do {
            let data = try await bytes(in: clipped)
            guard data.count == clipped.length else {
                throw ContainerError.truncated("got \(data.count) of \(clipped.length) bytes at \(clipped.lowerBound)")
            }
            return data
        } catch let error as ContainerError {
            throw error
        } catch {
            throw .read("\(error)")
        }
    }
}
