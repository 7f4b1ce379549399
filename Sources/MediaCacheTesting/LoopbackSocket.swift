#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP socket on loopback: enough to find a free port, see whether one listens,
/// and talk HTTP/1.1 like a player does (``RangeClient``).
package struct LoopbackSocket {
    /// The file descriptor.
    package let descriptor: Int32

    /// Opens a socket that child processes do not inherit: a test that spawns ffmpeg while a
    /// client reads would otherwise keep the client's connection open in ffmpeg after the client
    /// closed it, and the server would go on sending to a player that left.
    package init() {
        #if canImport(Glibc)
        descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        descriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        #endif
    }

    /// Connects to `127.0.0.1:port`; returns whether it worked.
    package func connect(port: Int) -> Bool {
        var address = Self.loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                #else
                Darwin.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                #endif
            }
        }
    }

    /// Binds to a free loopback port and returns it.
    package func bindToFreePort() -> Int? {
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard bound else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        return named ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// Closes the socket.
    package func close() {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

extension LoopbackSocket {
    /// Makes a blocking receive give up after `seconds` without bytes.
    package func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Whether a server accepts connections on `127.0.0.1:port` now.
    package static func accepts(port: Int) -> Bool {
        let socket = LoopbackSocket()
        defer { socket.close() }
        return socket.connect(port: port)
    }
}
