import Foundation

/// The custom scheme that sends an asset's requests to MediaCache's resource loader: the
/// original scheme with a prefix, so that `https://cdn.example/a.mp4` becomes
/// `mediacache+https://cdn.example/a.mp4` and back, with the file extension where AVFoundation
/// looks for it.
public enum CachingScheme {
    /// What is put before the original scheme.
    public static let prefix = "mediacache+"

    /// The URL an asset loads through the resource loader; `nil` for a URL that is not http(s).
    public static func cachingURL(for url: URL) -> URL? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return nil }
        components.scheme = prefix + scheme
        return components.url
    }

    /// The original URL of a caching URL; `nil` when `url` is not one.
    public static func originalURL(for url: URL?) -> URL? {
        guard let url, let scheme = url.scheme?.lowercased(), scheme.hasPrefix(prefix),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return nil }
        components.scheme = String(scheme.dropFirst(prefix.count))
        guard components.scheme == "http" || components.scheme == "https" else { return nil }
        return components.url
    }
}
