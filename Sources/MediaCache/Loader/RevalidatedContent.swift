import Foundation

/// A small resource read whole after making sure it is fresh enough (see
/// ``MediaLoader/revalidatedContent(of:maximumLength:purpose:maximumAge:)``).
public struct RevalidatedContent: Sendable {
    /// The stored record the body belongs to.
    public var record: ResourceRecord
    /// The whole content.
    public var body: Data
    /// ``ByteChunk/Source/network`` when the origin sent the body just now, otherwise
    /// ``ByteChunk/Source/cache`` (the stored copy was fresh, confirmed, or served stale).
    public var source: ByteChunk.Source
    /// How long ago the origin last confirmed the content; `nil` when no confirmation was
    /// ever recorded (a resource stored by an older version).
    public var age: Duration?
    /// Why the origin could not confirm the content, when the stored copy is served without
    /// its confirmation (the origin is unreachable or failing); `nil` when the copy is fresh.
    public var staleReason: LoaderError?

    /// Whether the stored copy is served although the origin could not confirm it.
    public var isStale: Bool { staleReason != nil }

    /// The body as one chunk from offset 0.
    public var chunk: ByteChunk { ByteChunk(offset: 0, bytes: body, source: source) }
}
