#if os(Linux)
import Foundation
import Glibc

/// What iOS does to a suspended app's listening sockets, done on Linux: every socket of this
/// process listening on a port is shut down, so that accepting on it fails.
enum ListeningSockets {
    /// Shuts down this process's listening sockets on `port`; returns how many there were.
    @discardableResult
    static func shutDown(port: Int) throws -> Int {
        let inodes = try listeningInodes(port: port)
        var count = 0
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            guard let fd = Int32(entry),
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                  target.hasPrefix("socket:["), inodes.contains(String(target.dropFirst(8).dropLast())) else { continue }
            if shutdown(fd, Int32(SHUT_RDWR)) == 0 { count += 1 }
        }
        return count
    }

    /// The inodes of the IPv4 sockets listening on `port` (state 0A in /proc/net/tcp).
    private static func listeningInodes(port: Int) throws -> Set<String> {
        let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let local = String(format: ":%04X", port)
        return Set(table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[1].hasSuffix(local), fields[3] == "0A" else { return nil }
            return String(fields[9])
        })
    }
}
#endif
