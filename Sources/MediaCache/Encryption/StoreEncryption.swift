import Crypto
import Foundation

/// Encryption at rest for a ``MediaStore`` (opt-in): every data file, and so every cached
/// segment, playlist, key and download, is stored encrypted with AES-256-GCM in blocks of
/// ``blockSize`` bytes, so that random access and partial caching work as without it.
///
/// The key is the app's: 32 bytes it keeps, on Apple platforms typically in the Keychain.
///
/// ```swift
/// var configuration = MediaStore.Configuration()
/// configuration.encryption = try StoreEncryption(key: SymmetricKey(data: keyFromKeychain))
/// let store = try MediaStore.open(at: directory, configuration: configuration)
/// ```
///
/// A block whose bytes fail authentication (damaged, or written with another key) counts as not
/// cached and is fetched again; it is never served. A directory written with another key, or
/// without one, is left as it is: the store opens empty in a directory of its own beside it and
/// logs why (see ``MediaStore/open(at:configuration:)``).
public struct StoreEncryption: Sendable {
    /// Plaintext bytes per encrypted block: 64 KiB. Each block costs 16 bytes of tag on disk.
    public static let blockSize = 64 << 10

    /// The app's key.
    let key: SymmetricKey

    /// Encryption with `key`, which must be 256 bits long.
    ///
    /// - Throws: ``StoreEncryptionError/keySize(_:)`` for a key of another length.
    public init(key: SymmetricKey) throws(StoreEncryptionError) {
        guard key.bitCount == 256 else { throw .keySize(key.bitCount / 8) }
        self.key = key
    }

    /// Encryption with the key in the file at `path`: 32 bytes, or 64 hexadecimal digits (as
    /// `openssl rand -hex 32` writes them).
    ///
    /// - Throws: ``StoreEncryptionError`` when the file cannot be read or holds no such key.
    public init(keyFile path: String) throws(StoreEncryptionError) {
        guard let contents = FileManager.default.contents(atPath: path) else { throw .unreadableKeyFile(path) }
        let text = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count == 64, let bytes = Self.hexBytes(text) {
            try self.init(key: SymmetricKey(data: bytes))
        } else if contents.count == 32 {
            try self.init(key: SymmetricKey(data: contents))
        } else {
            throw .malformedKeyFile(path)
        }
    }

    /// Names the key without revealing it: 16 hexadecimal digits of an HMAC under it.
    public var keyIdentifier: String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("MediaCache key identifier".utf8), using: key)
        return code.prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// The key of one data file, derived from the app's key and the file's own random salt.
    func fileKey(salt: Data) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: salt, info: Data("MediaCache data file".utf8), outputByteCount: 32)
    }

    private static func hexBytes(_ text: String) -> Data? {
        var bytes = Data(capacity: text.count / 2)
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}

/// Why an encryption key cannot be used.
///
/// ```swift
/// do {
///     configuration.encryption = try StoreEncryption(keyFile: "/etc/mediacache/key")
/// } catch {
///     print(error)   // the key file /etc/mediacache/key holds neither 32 bytes nor …
/// }
/// ```
public struct StoreEncryptionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public typealias Code = ErrorCode<StoreEncryptionError>

    /// What kind of failure it is.
    public let code: Code
    /// What is wrong, and what to do about it.
    public let message: String
    /// The key file, when the key came from one.
    public let path: String?

    private init(_ code: Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    /// The key is not 32 bytes long.
    public static func keySize(_ bytes: Int) -> Self { Self(.keySize, "an encryption key has 32 bytes, not \(bytes)") }

    /// The key file cannot be read.
    public static func unreadableKeyFile(_ path: String) -> Self {
        Self(.unreadableKeyFile, "cannot read the key file \(path)", path: path)
    }

    /// The key file holds neither 32 bytes nor 64 hexadecimal digits.
    public static func malformedKeyFile(_ path: String) -> Self {
        Self(
            .malformedKeyFile,
            "the key file \(path) holds neither 32 bytes nor 64 hexadecimal digits; make one with `openssl rand -hex 32`", path: path)
    }

    public var description: String { message }
}

extension ErrorCode where Owner == StoreEncryptionError {
    /// The key is not 32 bytes long.
    public static var keySize: Self { Self("keySize") }
    /// The key file cannot be read.
    public static var unreadableKeyFile: Self { Self("unreadableKeyFile") }
    /// The key file holds neither 32 bytes nor 64 hexadecimal digits.
    public static var malformedKeyFile: Self { Self("malformedKeyFile") }
}
