import MediaCache

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
///
/// ```swift
/// do {
///     let attributes = try AttributeList(parsing: #"BANDWIDTH=800000,CODECS="avc1"#)
/// } catch {
///     print(error)   // the quoted value of CODECS does not end
/// }
/// ```
public struct AttributeListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public typealias Code = ErrorCode<AttributeListError>

    /// What kind of failure it is.
    public let code: Code
    /// What is wrong, and what to do about it.
    public let message: String
    /// The attribute concerned, when one can be named.
    public let name: String?

    private init(_ code: Code, _ message: String, name: String? = nil) {
        self.code = code
        self.message = message
        self.name = name
    }

    /// No attribute at all.
    public static var empty: Self { Self(.empty, "the attribute list is empty") }

    /// A name with characters other than letters, digits and `-`, or none.
    public static func invalidName(_ name: String) -> Self {
        Self(.invalidName, "'\(name)' is not an attribute name (letters, digits and -)", name: name)
    }

    /// `NAME` without `=value`, or with an empty value.
    public static func missingValue(name: String) -> Self { Self(.missingValue, "attribute \(name) has no value", name: name) }

    /// A quoted string that does not end.
    public static func unterminatedQuote(name: String) -> Self {
        Self(.unterminatedQuote, "the quoted value of \(name) does not end", name: name)
    }

    /// A `"` inside an unquoted value.
    public static func unexpectedQuote(name: String) -> Self {
        Self(.unexpectedQuote, "the unquoted value of \(name) holds a quote", name: name)
    }

    /// Something other than `,` after a value.
    public static func expectedComma(after name: String) -> Self {
        Self(.expectedComma, "a comma must follow the value of \(name)", name: name)
    }

    public var description: String { message }
}

extension ErrorCode where Owner == AttributeListError {
    /// No attribute at all.
    public static var empty: Self { Self("empty") }
    /// A name with characters other than letters, digits and `-`.
    public static var invalidName: Self { Self("invalidName") }
    /// A name without a value.
    public static var missingValue: Self { Self("missingValue") }
    /// A quoted string that does not end.
    public static var unterminatedQuote: Self { Self("unterminatedQuote") }
    /// A quote inside an unquoted value.
    public static var unexpectedQuote: Self { Self("unexpectedQuote") }
    /// Something other than a comma after a value.
    public static var expectedComma: Self { Self("expectedComma") }
}

extension Substring {
    func trimmingTrailingSpaces() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " || self[index(before: end)] == "\t" { end = index(before: end) }
        return self[startIndex..<end]
    }
}
