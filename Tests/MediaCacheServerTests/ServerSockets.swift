import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The server's ends of the connections this process serves on a port, as the kernel sees them.
enum ServerSockets {
    /// The value of socket option `name` at `level` of each of this process's sockets that
    /// serve a connection on `port`: the server's ends, not the listener, which has no peer.
    static func option(_ level: Int32, _ name: Int32, port: Int) -> [Int] {
        connections(on: port).compactMap { descriptor in
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(descriptor, level, name, &value, &length) == 0 ? Int(value) : nil
        }
    }

    /// The value of socket option `name` at `level`, a name such as `TCP_CONGESTION`'s, of each
    /// of the server's ends of the connections on `port`.
    static func textOption(_ level: Int32, _ name: Int32, port: Int) -> [String] {
        connections(on: port).compactMap { descriptor in
            var value = [UInt8](repeating: 0, count: 64)
            var length = socklen_t(value.count)
            guard getsockopt(descriptor, level, name, &value, &length) == 0 else { return nil }
            return String(decoding: value.prefix(Int(length)).prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// This process's descriptors of connected sockets whose local port is `port`.
    private static func connections(on port: Int) -> [Int32] {
        (Int32(0)..<4096).filter { descriptor in
            var local = sockaddr_in()
            var peer = sockaddr_in()
            return address(of: descriptor, into: &local, getsockname) && address(of: descriptor, into: &peer, getpeername)
                && local.sin_family == sa_family_t(AF_INET) && Int(UInt16(bigEndian: local.sin_port)) == port
        }
    }

    private static func address(
        of descriptor: Int32, into address: inout sockaddr_in,
        _ read: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> Bool {
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { read(descriptor, $0, &length) == 0 }
        }
    }
}
