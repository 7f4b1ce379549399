/// A download selection that names what the presentation does not have: a language no
/// rendition has, a variant no stream fits. The download is refused before it starts, with
/// what the presentation has, so that the user can choose again (the command line exits 64,
/// the API answers `400`).
///
/// ```swift
/// do {
///     try await downloads.download(url, selection: DownloadSelection(audio: .languages(["fr"])))
/// } catch let error as DownloadSelectionError {
///     print(error)   // the presentation has no audio in fr; it has: en, de
/// }
/// ```
public struct DownloadSelectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was asked for, as a user names it: `audio in fr`, `variant within 300000 bit/s`.
    public var wanted: String
    /// What the presentation has instead, as a user would ask for it.
    public var available: [String]

    public init(wanted: String, available: [String]) {
        self.wanted = wanted
        self.available = available
    }

    public var description: String {
        "the presentation has no \(wanted); it has: " + (available.isEmpty ? "none" : available.joined(separator: ", "))
    }
}

extension DownloadSelection {
    /// Refuses languages for a resource downloaded alone (a media playlist, a file), which has
    /// no renditions to choose from.
    package func checkAlone() throws(DownloadSelectionError) {
        for (kind, choice) in [("audio", audio), ("subtitles", subtitles)] {
            if case .languages(let languages) = choice, let language = languages.first {
                throw DownloadSelectionError(wanted: "\(kind) in \(language) (it is not a multivariant playlist)", available: [])
            }
        }
    }
}

extension DownloadSelection {
    /// Whether it names a language, a bandwidth or a resolution, which a presentation may lack.
    var namesSomething: Bool {
        switch variant {
        case .maximumBandwidth, .maximumResolution: return true
        case .highest, .lowest: break
        }
        for choice in [audio, subtitles] {
            if case .languages = choice { return true }
        }
        return false
    }
}
