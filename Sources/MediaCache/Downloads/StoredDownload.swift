import Foundation

/// A download as the store's index keeps it, so that it survives restarts and crashes. The
/// download manager owns the meaning of ``selection`` and ``state``.
public struct StoredDownload: Hashable, Sendable {
    /// A stable identifier.
    public var id: String
    /// The URL downloaded (a playlist or a file).
    public var url: URL
    /// A title for people.
    public var title: String
    /// The selection and what it resolved to, encoded by the download manager.
    public var selection: Data
    /// The state's name, such as `downloading`.
    public var state: String
    /// Why it failed, when it did.
    public var error: String?
    /// Bytes of it stored.
    public var bytesDone: Int64
    /// Bytes expected in all, once estimated.
    public var bytesExpected: Int64?
    /// Whether ``bytesExpected`` is an estimate rather than known lengths.
    public var expectedIsEstimate: Bool
    /// When it was asked for.
    public var created: Date
    /// When it last changed.
    public var updated: Date

    /// Creates a record.
    public init(
        id: String, url: URL, title: String, selection: Data, state: String, error: String? = nil,
        bytesDone: Int64 = 0, bytesExpected: Int64? = nil, expectedIsEstimate: Bool = true,
        created: Date, updated: Date
    ) {
        self.id = id
        self.url = url
        self.title = title
        self.selection = selection
        self.state = state
        self.error = error
        self.bytesDone = bytesDone
        self.bytesExpected = bytesExpected
        self.expectedIsEstimate = expectedIsEstimate
        self.created = created
        self.updated = updated
    }
}
