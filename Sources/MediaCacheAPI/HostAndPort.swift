import MediaCache

/// A host with an optional port as written in a `Host` header or an allow-list: `name`,
/// `name:port`, `[v6]` or `[v6]:port`.
package struct HostAndPort {
    /// The host, without brackets.
    package var host: Substring
    /// Whether the host was an address in brackets (IPv6).
    package var isBracketed: Bool
    /// The port, 1 to 65535, when given.
    package var port: Int?

    /// Splits `text`; `nil` for an empty host, an unclosed bracket, anything after `]` other
    /// than `:port`, a colon in a host without brackets, or a port that is not 1 to 65535 in
    /// digits.
    package init?(_ text: Substring) {
        var rest = text
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            portText = after.isEmpty ? nil : after.dropFirst()
            rest = rest[rest.index(after: rest.startIndex)..<close]
            isBracketed = true
        } else {
            if let colon = rest.lastIndex(of: ":") {
                portText = rest[rest.index(after: colon)...]
                rest = rest[..<colon]
            }
            guard !rest.contains(":") else { return nil }
            isBracketed = false
        }
        if let portText {
            guard let number = HTTPFieldText.decimal(portText), (1...65_535).contains(number) else { return nil }
            port = Int(number)
        }
        guard !rest.isEmpty else { return nil }
        host = rest
    }
}
