import Foundation
import MediaCache

/// A live playlist whose origin has failed for longer than its freshness allows
/// (``PlaylistFreshness/maximumStaleAge(of:)``): its last copy is no longer served, so that a
/// player ends the stream rather than wait on a window that never moves. The proxy answers
/// `504 Gateway Timeout` with ``description``.
public struct LiveOutageError: Error, CustomStringConvertible, Sendable {
    /// The playlist.
    public var url: URL
    /// How long ago the origin last confirmed it.
    public var age: Duration
    /// Why the origin could not confirm it since.
    public var failure: LoaderError

    public var description: String {
        "the live playlist \(url) was last confirmed by its origin \(age.components.seconds) s ago: \(failure)"
    }
}
