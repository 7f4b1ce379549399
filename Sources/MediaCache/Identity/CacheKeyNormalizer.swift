import Foundation

/// Turns a resource URL into the ``ResourceKey`` it is cached under.
///
/// The default keeps the whole URL. Use ``droppingQueryItems(_:)`` for signed URLs whose
/// tokens change while the content does not, or write your own:
///
/// ```swift
/// let normalizer = CacheKeyNormalizer.droppingQueryItems(["token", "Expires", "Signature"])
/// normalizer.key(for: URL(string: "https://cdn.example/a.mp4?token=1&q=hd")!)
/// // "https://cdn.example/a.mp4?q=hd"
///
/// let byPath = CacheKeyNormalizer { url in ResourceKey(url.path) }
/// ```
public struct CacheKeyNormalizer: Sendable {
    private let transform: @Sendable (URL) -> ResourceKey

    /// Creates a normaliser from a function of the URL.
    public init(_ transform: @escaping @Sendable (URL) -> ResourceKey) {
        self.transform = transform
    }

    /// The key for `url`.
    public func key(for url: URL) -> ResourceKey {
        transform(url)
    }

    /// Keys every URL by its full absolute string.
    public static let wholeURL = CacheKeyNormalizer { url in ResourceKey(url.absoluteString) }

    /// Keys a URL by its absolute string without the named query items (matched exactly,
    /// case-sensitively) and without its fragment; the remaining items keep their order.
    /// LL-HLS delivery directives (`_HLS_msn`, `_HLS_part`, `_HLS_skip`) are never dropped:
    /// each names another playlist.
    public static func droppingQueryItems(_ names: Set<String>) -> CacheKeyNormalizer {
        let names = names.filter { !$0.hasPrefix("_HLS_") }
        return CacheKeyNormalizer { url in
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
                return ResourceKey(url.absoluteString)
            }
            components.fragment = nil
            if let items = components.queryItems {
                let kept = items.filter { !names.contains($0.name) }
                components.queryItems = kept.isEmpty ? nil : kept
            }
            return ResourceKey(components.string ?? url.absoluteString)
        }
    }
}
