import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The server's ends of the connections this process serves on a port, as the kernel sees them.
enum ServerSockets {
    /// The value of socket option `name` at `level` of each of this process's sockets that
    /// serve a connection on `port`: the server's ends, not the listener, which has no peer.
    static func option(_ level: Int32, _ name: Int32, port: Int) -> [Int] {
        var values: [Int] = []
        for descriptor in Int32(0)..<4096 {
            var local = sockaddr_in()
            var peer = sockaddr_in()
            guard address(of: descriptor, into: &local, getsockname), address(of: descriptor, into: &peer, getpeername),
                  local.sin_family == sa_family_t(AF_INET), Int(UInt16(bigEndian: local.sin_port)) == port else { continue }
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, level, name, &value, &length) == 0 else { continue }
            values.append(Int(value))
        }
        return values
    }

    private static func address(of descriptor: Int32, into address: inout sockaddr_in,
                                _ read: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) -> Bool {
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { read(descriptor, $0, &length) == 0 }
        }
    }
}
