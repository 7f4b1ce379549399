#if os(Linux)
import Foundation
import Glibc

/// What iOS does to a suspended app's listening sockets, done on Linux: every socket of this
/// process listening on a port is shut down, so that accepting on it fails.
enum ListeningSockets {
    /// Shuts down this process's listening sockets on `port`, but `sparing`; returns how many
    /// there were.
    @discardableResult
    static func shutDown(port: Int, sparing: Int32? = nil) throws -> Int {
        let inodes = try listeningInodes(port: port)
        var count = 0
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            guard let fd = Int32(entry), fd != sparing,
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                target.hasPrefix("socket:["), inodes.contains(String(target.dropFirst(8).dropLast()))
            else { continue }
            if shutdown(fd, Int32(SHUT_RDWR)) == 0 { count += 1 }
        }
        return count
    }

    /// A socket of this process listening on 127.0.0.1:`port` beside the sockets listening
    /// there (`SO_REUSEPORT`), which never accepts: once those go, it keeps others from binding
    /// the port alone. Close it with `close`.
    static func occupy(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EADDRINUSE)
        }
        return fd
    }

    /// The inodes of the IPv4 sockets listening on `port` (state 0A in /proc/net/tcp).
    private static func listeningInodes(port: Int) throws -> Set<String> {
        // Read to the end: the file reports no size, and a read of one page misses sockets.
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp"))
        defer { try? file.close() }
        let table = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        let local = String(format: ":%04X", port)
        return Set(
            table.split(separator: "\n").dropFirst().compactMap { line -> String? in
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[1].hasSuffix(local), fields[3] == "0A" else { return nil }
                return String(fields[9])
            })
    }
}
#endif
