import Foundation

/// Resolves URI references against a playlist's URL (RFC 3986), with a fast path for the
/// reference nearly every segment line is: a plain relative path such as `seg12.ts?sig=a`,
/// which is the base's directory followed by the reference.
struct URIResolver {
    let base: URL
    /// `scheme://authority/directory/` of the base.
    private let directory: String?

    init(base: URL) {
        self.base = base
        let text = base.absoluteString
        let path = text[..<(text.firstIndex { $0 == "?" || $0 == "#" } ?? text.endIndex)]
        directory = path.lastIndex(of: "/").map { String(path[...$0]) }.flatMap { $0.contains("://") ? $0 : nil }
    }

    /// The absolute URL `reference` names, or `nil` when it is not a URI reference.
    func resolve(_ reference: String) -> URL? {
        if let directory, Self.isPlainRelativePath(reference) { return URL(string: directory + reference) }
        return URL(string: reference, relativeTo: base)?.absoluteURL
    }

    /// A reference with no scheme, authority, root, dot segments or fragment: one that RFC 3986
    /// resolves by appending it to the base's directory.
    static func isPlainRelativePath(_ reference: String) -> Bool {
        guard let first = reference.utf8.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "?"),
            first != UInt8(ascii: "#"), first != UInt8(ascii: ".")
        else { return false }
        for byte in reference.utf8 where byte == UInt8(ascii: ":") || byte == UInt8(ascii: "#") { return false }
        return !reference.contains("/.")
    }
}
