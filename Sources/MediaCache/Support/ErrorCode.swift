/// The kind of an error of type `Owner`: what happened, as a value a caller can compare and
/// switch over.
///
/// Every error type of MediaCache is a struct with a code, a message, the resource it
/// concerns and its underlying cause, so that a release can add a kind of failure without
/// breaking a caller's `switch`. The codes an error can have are static members of its
/// `Code`:
///
/// ```swift
/// do {
///     try store.write(bytes, at: 0, to: key, generation: generation)
/// } catch let error as MediaStoreError where error.code == .diskFull {
///     // free space; retrying will not help
/// }
///
/// switch originError.code {
/// case .status: print("the origin answered \(originError.status ?? 0)")
/// default: print(originError)   // a new code in a later release lands here
/// }
/// ```
public struct ErrorCode<Owner>: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, as its static member is spelled: `diskFull`, `status`.
    public let name: String

    /// Creates the code called `name`; each error type declares its own codes.
    package init(_ name: String) {
        self.name = name
    }

    public var description: String { name }
}
