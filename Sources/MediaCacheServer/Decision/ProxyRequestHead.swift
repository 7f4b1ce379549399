import HTTPTypes
import MediaCache
import NIOHTTP1

/// What the proxy decides a request on: its method, target and header fields, read once from
/// the head the connection parsed.
struct ProxyRequestHead: Sendable {
    var method: HTTPRequest.Method
    /// The request target as sent: path and query, with any `/t/<token>` prefix.
    var target: String
    var fields: [(name: String, value: String)]

    init(method: HTTPRequest.Method, target: String, fields: [(name: String, value: String)] = []) {
        self.method = method
        self.target = target
        self.fields = fields
    }

    init(_ head: HTTPRequestHead) {
        self.init(
            method: HTTPRequest.Method(rawValue: head.method.rawValue) ?? .get, target: head.uri,
            fields: head.headers.map { (name: $0.name, value: $0.value) })
    }

    /// The value of the field `name`, its lines joined as HTTP/1 joins them; `nil` when absent.
    func field(_ name: String) -> String? {
        let values = fields.filter { HTTPFieldText.equalsIgnoringCase($0.name, name) }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}
