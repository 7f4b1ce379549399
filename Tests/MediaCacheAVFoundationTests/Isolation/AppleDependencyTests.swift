#if !canImport(AVFoundation)
import Foundation
import Testing

/// An app that links the adapter on Apple platforms fetches through its URLSession: it links
/// no second TLS stack (BoringSSL, from swift-nio-ssl or swift-crypto) and no AsyncHTTPClient.
@Suite(.timeLimit(.minutes(2))) struct AppleDependencyTests {
    static let forbidden: Set<String> = ["swift-nio-ssl", "async-http-client"]

    @Test(arguments: ["ios", "macos", "tvos", "visionos", "maccatalyst"])
    func theAdapterLinksNoTLSStackOrHTTPClientOn(_ platform: String) throws {
        let closure = try Self.closure(of: "MediaCacheAVFoundation", on: platform)
        let unwanted = closure.targets.filter { Self.forbidden.contains($0.package) || $0.name.contains("BoringSSL") }
        #expect(unwanted.isEmpty, "\(platform): \(unwanted.map(\.description).sorted())")
        #expect(closure.targets.contains(.init(package: "", name: "MediaCacheURLSession")))
    }

    @Test func onLinuxTheClosureHasThemWhichShowsTheCheckCanFail() throws {
        let closure = try Self.closure(of: "MediaCacheAVFoundation", on: "linux")
        #expect(closure.targets.contains { $0.package == "swift-nio-ssl" })
        #expect(closure.targets.contains { $0.name.contains("BoringSSL") })
    }

    private static func closure(of product: String, on platform: String) throws -> PackageClosure {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        // <build path>/<triple>/debug/MediaCachePackageTests.xctest: checkouts sit in <build path>.
        let build = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return try PackageClosure(product: product, root: root, checkouts: build.appending(path: "checkouts"), platform: platform)
    }
}
#endif
