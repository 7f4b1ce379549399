import Foundation
import MediaCache
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A player-like HTTP/1.1 client on plain blocking sockets: one `GET` per connection, an
/// optional `Range`, the body read until its end or until the client has what it wants, then
/// the connection closed, as a player that seeks abandons a read; or several `GET`s in turn
/// on one kept-alive connection, the last abandoned, as a player in a feed moves on.
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

    /// Reads each of `paths` on one kept-alive connection, every body but the last whole, the
    /// last until `stopAfter` of its bytes arrived; then holds the connection open for `hold`
    /// without reading, as a paused player does, and closes it. Returns the last body's bytes
    /// read, at most `stopAfter`.
    public func get(inTurn paths: [String], stopAfter: Int64, holding hold: Duration) throws -> Int64 {
        let socket = LoopbackSocket()
        defer { socket.close() }
        guard socket.connect(port: port) else { throw RangeClientError("cannot connect to 127.0.0.1:\(port)") }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var pending: [UInt8] = []
        var lastBody: Int64 = 0
        for (index, path) in paths.enumerated() {
            let bytes = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
            guard bytes.withUnsafeBytes({ send(socket.descriptor, $0.baseAddress, $0.count, 0) }) == bytes.count else {
                throw RangeClientError("cannot send the request for \(path)")
            }
            var length: Int64?
            var body: Int64 = 0
            let wanted: (Int64) -> Int64 = { index == paths.count - 1 ? min($0, stopAfter) : $0 }
            while length.map({ body < wanted($0) }) ?? true {
                let count = buffer.withUnsafeMutableBytes { recv(socket.descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { throw RangeClientError("\(path): the connection closed") }
                guard length == nil else { body += Int64(count); continue }
                pending += buffer[0..<count]
                guard let end = Self.endOfHead(pending) else { continue }
                let head = String(decoding: pending[..<end], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 2"), let value = Self.contentLength(in: head) else {
                    throw RangeClientError("\(path): \(head.prefix(40))")
                }
                (length, body, pending) = (value, Int64(pending.count - end), [])
            }
            lastBody = min(body, stopAfter)
        }
        Thread.sleep(forTimeInterval: hold.timeInterval)
        return lastBody
    }

    /// ``get(inTurn:stopAfter:holding:)`` on a thread of its own.
    public func read(inTurn paths: [String], stopAfter: Int64, holding hold: Duration) async throws -> Int64 {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try get(inTurn: paths, stopAfter: stopAfter, holding: hold) })
            }
        }
    }

    private static func contentLength(in head: String) -> Int64? {
        head.split(separator: "\r\n").lazy.compactMap { line -> Int64? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, HTTPFieldText.equalsIgnoringCase(parts[0], "Content-Length") else { return nil }
            return HTTPFieldText.decimal(HTTPFieldText.trimmed(parts[1]))
        }.first
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
        for index in 3..<bytes.count
        where bytes[index - 3] == 13 && bytes[index - 2] == 10
            && bytes[index - 1] == 13 && bytes[index] == 10
        {
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
