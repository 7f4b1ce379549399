import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a host to listen on is reachable from this machine only.
enum LoopbackAddress {
    /// `host` is a loopback address (`127.0.0.0/8`, `::1`), or a name every address of which is
    /// one; a name that does not resolve is not loopback.
    static func isLoopback(_ host: String) -> Bool {
        let addresses = resolve(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        return !addresses.isEmpty && addresses.allSatisfy(isLoopback(address:))
    }

    private static func isLoopback(address: sockaddr_storage) -> Bool {
        var address = address
        switch Int32(address.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: &address) { raw in
                raw.load(as: sockaddr_in.self).sin_addr.s_addr.bigEndian >> 24 == 127
            }
        case AF_INET6:
            return withUnsafeBytes(of: &address) { raw in
                let bytes = withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { Array($0) }
                return bytes == [UInt8](repeating: 0, count: 15) + [1]
            }
        default:
            return false
        }
    }

    private static func resolve(_ host: String) -> [sockaddr_storage] {
        var hints = addrinfo()
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [sockaddr_storage] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            if let address = entry.pointee.ai_addr {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen)))
                }
                addresses.append(storage)
            }
            next = entry.pointee.ai_next
        }
        return addresses
    }
}
