extension AttributeList {
    /// Parses `NAME=VALUE,NAME="quoted value",…`. Tolerates what real playlists carry: spaces
    /// after commas, lower-case names, a trailing comma.
    ///
    /// - Throws: ``AttributeListError`` saying what is malformed.
    public init(parsing text: String) throws(AttributeListError) {
        var attributes: [Attribute] = []
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { break }
            guard let equals = rest.firstIndex(of: "=") else { throw .missingValue(name: String(rest.prefix { $0 != "," })) }
            let name = String(rest[..<equals])
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw .invalidName(name)
            }
            rest = rest[rest.index(after: equals)...]
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else { throw .unterminatedQuote(name: name) }
                attributes.append(Attribute(name, String(body[..<close]), isQuoted: true))
                rest = body[body.index(after: close)...].drop { $0 == " " || $0 == "\t" }
            } else {
                let value = rest.prefix { $0 != "," }
                let trimmed = value.trimmingTrailingSpaces()
                guard !trimmed.isEmpty else { throw .missingValue(name: name) }
                guard !trimmed.contains("\"") else { throw .unexpectedQuote(name: name) }
                attributes.append(Attribute(name, String(trimmed), isQuoted: false))
                rest = rest.dropFirst(value.count)
            }
            guard let separator = rest.first else { break }
            guard separator == "," else { throw .expectedComma(after: name) }
            rest = rest.dropFirst()
        }
        guard !attributes.isEmpty else { throw .empty }
        self.init(attributes)
    }
}

/// What is wrong with an attribute list.
public enum AttributeListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No attribute at all.
    case empty
    /// A name with characters other than letters, digits and `-`, or none.
    case invalidName(String)
    /// `NAME` without `=value`, or with an empty value.
    case missingValue(name: String)
    /// A quoted string that does not end.
    case unterminatedQuote(name: String)
    /// A `"` inside an unquoted value.
    case unexpectedQuote(name: String)
    /// Something other than `,` after a value.
    case expectedComma(after: String)

    public var description: String {
        switch self {
        case .empty: "the attribute list is empty"
        case .invalidName(let name): "'\(name)' is not an attribute name (letters, digits and -)"
        case .missingValue(let name): "attribute \(name) has no value"
        case .unterminatedQuote(let name): "the quoted value of \(name) does not end"
        case .unexpectedQuote(let name): "the unquoted value of \(name) holds a quote"
        case .expectedComma(let name): "a comma must follow the value of \(name)"
        }
    }
}

extension Substring {
    func trimmingTrailingSpaces() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " || self[index(before: end)] == "\t" { end = index(before: end) }
        return self[startIndex..<end]
    }
}
