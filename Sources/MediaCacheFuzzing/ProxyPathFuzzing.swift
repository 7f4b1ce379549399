import Foundation
import MediaCacheAPI
import MediaCacheServer

/// The proxy-path laws: a request target either names an `http` or `https` origin with a
/// host, or is refused with a ``ProxyURLError``; an origin it names has a proxy path of its
/// own, which names the same origin again.
///
/// Input: the request target, as a client sends it after the method.
enum ProxyPathFuzzing {
    static func check(_ data: Data) -> FuzzFailure? {
        let target = String(decoding: data, as: UTF8.self)
        guard let origin = try? ProxyURL.origin(forTarget: target) else { return nil }
        guard let scheme = origin.scheme, ["http", "https"].contains(scheme), origin.host?.isEmpty == false else {
            return FuzzFailure("\(target) was read as \(origin.absoluteString), which is not an http(s) URL with a host")
        }
        guard let path = ProxyURL.path(for: origin) else {
            return FuzzFailure("\(target) was read as \(origin.absoluteString), which has no proxy path")
        }
        guard let again = try? ProxyURL.origin(forTarget: path), again.absoluteString == origin.absoluteString else {
            return FuzzFailure("\(target) was read as \(origin.absoluteString), whose proxy path \(path) names another origin")
        }
        return nil
    }
}
