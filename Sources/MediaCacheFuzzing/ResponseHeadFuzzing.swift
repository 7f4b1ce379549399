import Foundation
import MediaCache
import MediaCacheHTTP

/// The response-interpretation laws: any status and header block is read without trapping,
/// as an ``OriginError`` or as a response whose numbers are consistent: a partial body has a
/// start and a positive length inside the total length, and a known total length is positive
/// (or 0, for a `416` that says the resource is empty).
///
/// Input lines: the method (`HEAD`, or anything else for `GET`), the requested first byte
/// (empty for none), the requested end (exclusive, empty for none), the status, then one
/// `Name: value` header per line.
enum ResponseHeadFuzzing {
    static let url = URL(string: "https://cdn.example/v/clip.mp4")!

    static func check(_ data: Data) -> FuzzFailure? {
        var input = FuzzInput(data)
        var request = OriginRequest(url: url, method: input.next() == "HEAD" ? .head : .get)
        let offset = input.next().flatMap { Int64($0) }.map { max($0, 0) }
        let end = input.next().flatMap { Int64($0) }
        request.bytes = offset.map { first in ByteRequest(offset: first, end: end.map { max($0, first) }) }
        let status = input.next().flatMap { Int($0) } ?? 0
        let headers = input.rest().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...]))
        }
        guard let (kind, info) = try? ResponseInterpreter(request: request).interpret(status: status, headers: headers) else {
            return nil
        }
        let described = "\(status) \(headers.map { "\($0.0): \($0.1)" }.joined(separator: " | "))"
        // `416` with `bytes */0` is how an origin says a resource is empty; elsewhere a length of
        // 0 is never taken (an empty `Content-Length` on a `HEAD` is no length).
        if let total = info.totalLength, total < 0 || (total == 0 && kind != .rangeNotSatisfiable) {
            return FuzzFailure("\(described): total length \(total)")
        }
        if case .partial(let offset, let length) = kind {
            guard offset >= 0, let length, length > 0 else {
                return FuzzFailure("\(described): partial body at \(offset), length \(length.map(String.init) ?? "unknown")")
            }
            if let total = info.totalLength, offset > total - length {
                return FuzzFailure("\(described): partial body \(offset)+\(length) past the total \(total)")
            }
        }
        return nil
    }
}
