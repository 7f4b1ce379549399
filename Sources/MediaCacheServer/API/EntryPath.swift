import Hummingbird

/// The entry an `/api/entries/{name}` or `/api/entries/{name}/pin` path names: its key or URL,
/// percent-encoded so that it holds no `/`.
struct EntryPath {
    /// The key or URL, decoded.
    var name: String
    /// Whether the path ends in `/pin`.
    var isPin: Bool

    /// The entry path of `request`, or `nil` when it names none.
    init?(_ request: Request) {
        var encoded = request.uri.path.dropFirst("/api/entries/".count)
        isPin = encoded.hasSuffix("/pin")
        if isPin { encoded = encoded.dropLast("/pin".count) }
        guard !encoded.contains("/"), let name = encoded.removingPercentEncoding, !name.isEmpty else { return nil }
        self.name = name
    }

    /// The answer to a path that names no entry.
    static var refusal: Response { Response.text(.badRequest, "name the entry by its percent-encoded key or URL") }
}
