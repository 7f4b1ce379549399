#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `close(2)`, named apart from the `close()` methods of the types that call it.
@discardableResult
func closeFileDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
    Darwin.close(descriptor)
    #elseif canImport(Glibc)
    Glibc.close(descriptor)
    #elseif canImport(Musl)
    Musl.close(descriptor)
    #endif
}

/// Fills `buffer` with the bytes of `descriptor` from `offset` (`pread(2)`, retried when
/// interrupted); fewer only where the file ends.
///
/// - Returns: The bytes read, or the `errno` of the read that failed.
func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Result<Int, IOErrorCode> {
    var filled = 0
    while filled < buffer.count {
        let result = pread(descriptor, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset) + off_t(filled))
        if result < 0 {
            if errno == EINTR { continue }
            return .failure(IOErrorCode(errno))
        }
        if result == 0 { break }
        filled += result
    }
    return .success(filled)
}

/// An `errno` value, as the error of ``readFully(_:into:at:)``.
struct IOErrorCode: Error {
    let code: Int32

    init(_ code: Int32) {
        self.code = code
    }
}
