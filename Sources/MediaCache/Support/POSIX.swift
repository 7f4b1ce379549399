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
