import Foundation

/// The origin hosts a proxy may fetch from: exact names, or `*.example.com` for every
/// subdomain of `example.com` (not `example.com` itself).
///
/// ```swift
/// let allowed = HostAllowList(["cdn.example.com", "*.akamaized.net"])
/// allowed.allows("a.b.akamaized.net")   // true
/// allowed.allows("evil.example.org")    // false
/// ```
public struct HostAllowList: Hashable, Sendable {
    private let exact: Set<String>
    private let suffixes: [String]

    /// Creates a list from host patterns; case does not matter.
    public init(_ patterns: [String]) {
        let lowered = patterns.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        exact = Set(lowered.filter { !$0.hasPrefix("*.") })
        suffixes = lowered.filter { $0.hasPrefix("*.") }.map { String($0.dropFirst()) }
    }

    /// Whether `host` may be fetched from.
    public func allows(_ host: String) -> Bool {
        let host = host.lowercased()
        return exact.contains(host) || suffixes.contains { host.hasSuffix($0) && host.count > $0.count }
    }
}
