// swift-tools-version:6.2
import PackageDescription

/// Settings for every target of our own: Swift 6 mode is the package default;
/// warnings are errors.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error)
]

let package = Package(
    name: "MediaCache",
    platforms: [.macOS(.v13), .iOS(.v16), .macCatalyst(.v16), .tvOS(.v16), .visionOS(.v1)],
    products: [
        .library(name: "MediaCache", targets: ["MediaCache"]),
        .library(name: "MediaCacheHTTP", targets: ["MediaCacheHTTP"]),
        .library(name: "MediaCacheURLSession", targets: ["MediaCacheURLSession"]),
        .library(name: "MediaCacheHLS", targets: ["MediaCacheHLS"]),
        .library(name: "MediaCacheServer", targets: ["MediaCacheServer"]),
        .library(name: "MediaCacheAPI", targets: ["MediaCacheAPI"]),
        .library(name: "MediaCacheAVFoundation", targets: ["MediaCacheAVFoundation"]),
        .library(name: "MediaCacheTesting", targets: ["MediaCacheTesting"]),
        .executable(name: "mediacache", targets: ["MediaCacheCLI"]),
        .executable(name: "mediacache-benchmarks", targets: ["MediaCacheBenchmarks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "MediaCache",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // Running tasks on NIO event loops, shared by the HTTP origin and the proxy.
        .target(
            name: "MediaCacheEventLoops",
            dependencies: [.product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: strict
        ),
        .target(
            name: "MediaCacheHTTP",
            dependencies: [
                "MediaCache",
                "MediaCacheEventLoops",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        // The origin over an app's URLSession: the adapter's on Apple platforms, with no
        // dependency beyond the core.
        .target(
            name: "MediaCacheURLSession",
            dependencies: ["MediaCache"],
            swiftSettings: strict
        ),
        .target(
            name: "MediaCacheHLS",
            dependencies: ["MediaCache", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The proxy's JSON API and URLs as a client sees them: the models, the client, the
        // announcement of a running server. Foundation only, for the CLI and apps.
        .target(
            name: "MediaCacheAPI",
            dependencies: ["MediaCache"],
            swiftSettings: strict
        ),
        .target(
            name: "MediaCacheServer",
            dependencies: [
                "MediaCacheAPI",
                "MediaCache",
                "MediaCacheHLS",
                "MediaCacheEventLoops",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // Apple's AVFoundation types the adapter uses, with their exact Swift signatures and
        // in-memory behaviour, so that the adapter's sources build and run on Linux. Empty on
        // Apple platforms, where the adapter imports AVFoundation itself.
        .target(
            name: "AVFoundationShim",
            swiftSettings: strict
        ),
        .target(
            name: "MediaCacheAVFoundation",
            // On Apple platforms an app that links the adapter fetches through its URLSession and
            // links no TLS stack of its own: SwiftNIO's HTTP client (BoringSSL, AsyncHTTPClient)
            // is the origin on Linux only (AppleDependencyTests).
            dependencies: [
                "MediaCache",
                "MediaCacheURLSession",
                "MediaCacheServer",
                "MediaCacheAPI",
                "MediaCacheHLS",
                .target(name: "MediaCacheHTTP", condition: .when(platforms: [.linux])),
                .target(name: "AVFoundationShim", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "MediaCacheTesting",
            dependencies: [
                "MediaCache",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "MediaCacheCLI",
            dependencies: [
                "MediaCache",
                "MediaCacheHLS",
                "MediaCacheHTTP",
                "MediaCacheServer",
                "MediaCacheAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "MediaCacheCrashWriter",
            dependencies: ["MediaCache", "MediaCacheTesting"],
            swiftSettings: strict
        ),
        // The parsers' laws for arbitrary input, and the libFuzzer executable over them
        // (`scripts/fuzz`; see FUZZING.md).
        .target(
            name: "MediaCacheFuzzing",
            dependencies: ["MediaCache", "MediaCacheHLS", "MediaCacheHTTP", "MediaCacheServer", "MediaCacheAPI"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "MediaCacheFuzz",
            dependencies: ["MediaCacheFuzzing"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "MediaCacheBenchmarks",
            dependencies: ["MediaCache", "MediaCacheHLS", "MediaCacheHTTP", "MediaCacheTesting"],
            swiftSettings: strict
        ),
        .target(
            name: "MediaCacheFixtures",
            dependencies: ["MediaCache", "MediaCacheHLS", "MediaCacheHTTP", "MediaCacheTesting", "MediaCacheURLSession"],
            path: "Tests/Fixtures",
            swiftSettings: strict
        ),
        .testTarget(
            name: "MediaCacheTests",
            dependencies: [
                "MediaCache",
                "MediaCacheTesting",
                "MediaCacheCrashWriter",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MediaCacheLoaderTests",
            dependencies: [
                "MediaCache", "MediaCacheFixtures", "MediaCacheHLS", "MediaCacheHTTP", "MediaCacheTesting", "MediaCacheURLSession",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MediaCacheHLSTests",
            dependencies: ["MediaCache", "MediaCacheHLS", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MediaCacheHTTPTests",
            dependencies: [
                "MediaCache",
                "MediaCacheHTTP",
                "MediaCacheEventLoops",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MediaCacheServerTests",
            dependencies: [
                "MediaCache",
                "MediaCacheHLS",
                "MediaCacheHTTP",
                "MediaCacheServer",
                "MediaCacheAPI",
                "MediaCacheFixtures",
                "MediaCacheTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MediaCacheAVFoundationTests",
            dependencies: [
                "MediaCacheAVFoundation",
                "MediaCache",
                "MediaCacheHTTP",
                "MediaCacheURLSession",
                "MediaCacheHLS",
                "MediaCacheServer",
                "MediaCacheAPI",
                "MediaCacheFixtures",
                "MediaCacheTesting",
                .target(name: "AVFoundationShim", condition: .when(platforms: [.linux])),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MediaCacheFuzzingTests",
            dependencies: ["MediaCacheFuzzing"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MediaCacheCLITests",
            dependencies: ["MediaCacheCLI", "MediaCache", "MediaCacheServer", "MediaCacheAPI", "MediaCacheTesting"],
            swiftSettings: strict
        ),
    ]
)
