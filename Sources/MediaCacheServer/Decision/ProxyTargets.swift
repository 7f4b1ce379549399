import Foundation
import MediaCache
import MediaCacheAPI

/// The origin URLs of the proxy paths requested lately, so that the many requests a player
/// sends for one file (a range each, a replay, a seek) read its path once.
///
/// Reading a proxy path checks and canonicalises the origin URL through Foundation's URL
/// parser twice, which costs a cache hit more CPU than any other step of ours. The remembered answer is exactly ``ProxyURL/origin(forTarget:)``'s; refusals are
/// not remembered. Memory stays bounded: at most ``capacity`` paths of at most
/// ``longestTarget`` bytes, forgotten all at once when full.
final class ProxyTargets: Sendable {
    static let capacity = 512
    static let longestTarget = 2_048

    private let origins = Locked<[String: URL]>([:])

    /// The origin URL `target` stands for, as ``ProxyURL/origin(forTarget:)`` reads it.
    func origin(forTarget target: String) throws(ProxyURLError) -> URL {
        if let known = origins.withLock({ $0[target] }) { return known }
        let origin = try ProxyURL.origin(forTarget: target)
        guard target.utf8.count <= Self.longestTarget else { return origin }
        origins.withLock { origins in
            if origins.count >= Self.capacity { origins.removeAll(keepingCapacity: true) }
            origins[target] = origin
        }
        return origin
    }

    /// How many paths are remembered.
    var count: Int { origins.withLock(\.count) }
}
