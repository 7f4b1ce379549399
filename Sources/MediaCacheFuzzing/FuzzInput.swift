import Foundation

/// Fuzz input split into fields: lines of text, so that seeds are readable and libFuzzer's
/// mutations of one field leave the others in place.
struct FuzzInput {
    private var fields: ArraySlice<Substring>

    /// The lines of `data`, decoded as UTF-8 with invalid bytes replaced.
    init(_ data: Data) {
        fields = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)[...]
    }

    /// The next field, or `nil` when the input has no more.
    mutating func next() -> String? {
        fields.popFirst().map(String.init)
    }

    /// The next field, `nil` when it is empty or missing.
    mutating func nextNonEmpty() -> String? {
        next().flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The remaining fields.
    mutating func rest() -> [String] {
        defer { fields = [] }
        return fields.map(String.init)
    }
}
