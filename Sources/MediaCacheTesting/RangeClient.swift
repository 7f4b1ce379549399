import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A player-like HTTP/1.1 client on plain blocking sockets: one `GET` per connection, an
/// optional `Range`, the body read until its end or until the client has what it wants, then
/// the connection closed, as a player that seeks abandons a read.
public struct RangeClient: Sendable {
    /// The loopback port of the server.
    public let port: Int

    /// A client of the server on `127.0.0.1:port`.
    public init(port: Int) {
        self.port = port
    }

    /// Reads `path` with `range` (a `Range` header value such as `bytes=0-`), stopping once
    /// `stopAfter` body bytes arrived; returns the body bytes read, at most `stopAfter`.
    public func get(_ path: String, range: String? = nil, stopAfter: Int64? = nil) throws -> Int64 {
        let socket = LoopbackSocket()
        defer { socket.close() }
        guard socket.connect(port: port) else { throw RangeClientError("cannot connect to 127.0.0.1:\(port)") }
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let range { head += "Range: \(range)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8)
        guard bytes.withUnsafeBytes({ send(socket.descriptor, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            throw RangeClientError("cannot send the request for \(path)")
        }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var pending: [UInt8] = []
        var body: Int64 = -1
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket.descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            if body < 0 {
                pending += buffer[0..<count]
                guard let end = Self.endOfHead(pending) else { continue }
                let status = String(decoding: pending.prefix(12), as: UTF8.self)
                guard status.hasPrefix("HTTP/1.1 2") else { throw RangeClientError("\(path) \(range ?? ""): \(status)") }
                body = Int64(pending.count - end)
                pending = []
            } else {
                body += Int64(count)
            }
            if let stopAfter, body >= stopAfter { return stopAfter }
        }
        return max(body, 0)
    }

    /// ``get(_:range:stopAfter:)`` on a thread of its own, so that its blocking reads hold
    /// no thread of the caller's concurrency pool.
    public func read(_ path: String, range: String? = nil, stopAfter: Int64? = nil) async throws -> Int64 {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try get(path, range: range, stopAfter: stopAfter) })
            }
        }
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index - 3] == 13 && bytes[index - 2] == 10
            && bytes[index - 1] == 13 && bytes[index] == 10 {
            return index + 1
        }
        return nil
    }
}

/// The server refused the connection or answered with an error status.
public struct RangeClientError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
