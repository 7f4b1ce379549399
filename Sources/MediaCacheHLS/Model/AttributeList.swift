/// An attribute list (RFC 8216 §4.2): `NAME=VALUE` pairs in order, each value quoted or not.
/// Names are kept as written, repeats included, so that writing it back changes nothing.
///
/// ```swift
/// let list = try AttributeList(parsing: #"METHOD=AES-128,URI="key.bin",IV=0x1f"#)
/// list["URI"]         // "key.bin"
/// list.text           // METHOD=AES-128,URI="key.bin",IV=0x1f
/// ```
public struct AttributeList: Hashable, Sendable {
    /// One attribute.
    public struct Attribute: Hashable, Sendable {
        /// The name, such as `URI`.
        public var name: String
        /// The value, without quotes.
        public var value: String
        /// Whether the value is a quoted string.
        public var isQuoted: Bool

        /// An attribute; `isQuoted` for quoted-string values.
        public init(_ name: String, _ value: String, isQuoted: Bool) {
            self.name = name
            self.value = value
            self.isQuoted = isQuoted
        }
    }

    /// The attributes, in order.
    public var attributes: [Attribute]

    /// A list of `attributes`.
    public init(_ attributes: [Attribute]) {
        self.attributes = attributes
    }

    /// The value of the first attribute named `name`; setting replaces its value (keeping how
    /// it is quoted) or appends a quoted one.
    public subscript(name: String) -> String? {
        get { attributes.first { $0.name == name }?.value }
        set {
            guard let index = attributes.firstIndex(where: { $0.name == name }) else {
                if let newValue { attributes.append(Attribute(name, newValue, isQuoted: true)) }
                return
            }
            if let newValue { attributes[index].value = newValue } else { attributes.remove(at: index) }
        }
    }

    /// The list as written in a playlist.
    public var text: String {
        attributes.map { $0.name + "=" + ($0.isQuoted ? "\"\($0.value)\"" : $0.value) }.joined(separator: ",")
    }
}
