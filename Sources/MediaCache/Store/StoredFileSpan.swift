import Foundation

/// Cached bytes of a resource that are still in its data file: an open descriptor of that
/// file with the span to send, for a server that sends a file's bytes without copying them
/// through user space (`sendfile`).
///
/// The descriptor is this span's own: a resource that moves to a new generation, or is
/// evicted or removed, gets a new data file, so the span keeps reading exactly the bytes that
/// were cached when it was made. It is closed when the span goes away, unless
/// ``takeDescriptor()`` handed it over.
///
/// ```swift
/// if case .file(let chunk) = try await read.nextPart(fileSpansUpTo: 1 << 20),
///    let descriptor = chunk.span.takeDescriptor() {
///     // send chunk.span.length bytes from chunk.span.offset, then close(descriptor)
/// }
/// ```
public final class StoredFileSpan: Sendable {
    /// The offset of the first byte in the resource, which is also its offset in the file.
    public let offset: Int64
    /// How many bytes the span holds.
    public let length: Int64
    private let descriptor: Locked<Int32?>

    init(descriptor: Int32, offset: Int64, length: Int64) {
        self.descriptor = Locked(descriptor)
        self.offset = offset
        self.length = length
    }

    /// Hands the descriptor over to the caller, who closes it; `nil` when it was taken before.
    public func takeDescriptor() -> Int32? {
        descriptor.withLock { descriptor in
            defer { descriptor = nil }
            return descriptor
        }
    }

    /// Reads the span's bytes from `position` (counted from the span's start) into `buffer`,
    /// as many as fit and remain: for a writer that cannot send a file.
    ///
    /// - Returns: The bytes read.
    /// - Throws: ``IOError`` when the read fails, the file ends early, or the descriptor was taken.
    public func read(from position: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(IOError) -> Int {
        let count = Int(min(Int64(buffer.count), length - position))
        guard count > 0 else { return 0 }
        return try descriptor.withLock { descriptor throws(IOError) -> Int in
            guard let descriptor else { throw IOError(operation: "read", path: "a sent file span", code: EBADF) }
            switch readFully(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]), at: offset + position) {
            case .success(let filled) where filled == count:
                return filled
            case .success:
                throw IOError(operation: "read", path: "a cached span", code: EIO)
            case .failure(let failure):
                throw IOError(operation: "read", path: "a cached span", code: failure.code)
            }
        }
    }

    deinit {
        if let descriptor = takeDescriptor() { closeFileDescriptor(descriptor) }
    }
}
