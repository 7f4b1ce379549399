#if !canImport(AVFoundation)
import Foundation

/// What a product links on a platform: the targets it reaches through its dependencies, those
/// of the packages it uses included, read from each package's manifest
/// (`swift package dump-package`) with target conditions applied.
struct PackageClosure {
    /// A target, named with its package's identity (`swift-nio/NIOCore`).
    struct Target: Hashable, CustomStringConvertible {
        var package: String
        var name: String
        var description: String { "\(package)/\(name)" }
    }

    private(set) var targets: Set<Target> = []
    private var manifests: [String: Manifest] = [:]
    private let root: URL
    private let checkouts: URL
    private let platform: String

    /// The closure of `product` of the package at `root` on `platform` (a SwiftPM platform
    /// name, such as `ios`), with dependencies checked out in `checkouts`.
    init(product: String, root: URL, checkouts: URL, platform: String) throws {
        self.root = root
        self.checkouts = checkouts
        self.platform = platform
        try add(product: product, of: "")
    }

    private mutating func add(product: String, of package: String) throws {
        let manifest = try self.manifest(package)
        guard let found = manifest.products.first(where: { $0.name == product }) else {
            throw ClosureError.unknown("product \(product) of \(package.isEmpty ? "this package" : package)")
        }
        for target in found.targets { try add(target: target, of: package) }
    }

    private mutating func add(target name: String, of package: String) throws {
        guard targets.insert(Target(package: package, name: name)).inserted else { return }
        let manifest = try self.manifest(package)
        guard let target = manifest.targets.first(where: { $0.name == name }) else {
            throw ClosureError.unknown("target \(name) of \(package)")
        }
        for dependency in target.dependencies where dependency.applies(on: platform) {
            switch dependency.kind {
            case .target(let name):
                try add(target: name, of: package)
            case .byName(let name):
                if manifest.targets.contains(where: { $0.name == name }) {
                    try add(target: name, of: package)
                } else {
                    try add(product: name, of: try packageWithProduct(name, among: manifest.dependencies))
                }
            case .product(let name, let other):
                try add(product: name, of: other.lowercased())
            }
        }
    }

    private mutating func packageWithProduct(_ product: String, among packages: [String]) throws -> String {
        for package in packages where try manifest(package).products.contains(where: { $0.name == product }) {
            return package
        }
        throw ClosureError.unknown("product \(product)")
    }

    private mutating func manifest(_ package: String) throws -> Manifest {
        if let known = manifests[package] { return known }
        let directory = try package.isEmpty ? root : checkout(of: package)
        let made = try Manifest(dumping: directory)
        manifests[package] = made
        return made
    }

    /// The folder of a dependency, whose name may differ from its identity in case.
    private func checkout(of identity: String) throws -> URL {
        let names = try FileManager.default.contentsOfDirectory(atPath: checkouts.path)
        guard let name = names.first(where: { $0.lowercased() == identity }) else { throw ClosureError.unknown("checkout of \(identity)") }
        return checkouts.appending(path: name)
    }
}

/// The parts of `swift package dump-package` a closure reads.
private struct Manifest {
    struct Product {
        var name: String
        var targets: [String]
    }

    struct Dependency {
        enum Kind {
            case target(String)
            case byName(String)
            case product(String, package: String)
        }

        var kind: Kind
        var platforms: [String]?

        /// Whether the dependency holds on `platform`: it names none, or names it. Trait
        /// conditions count as met (the default traits are on).
        func applies(on platform: String) -> Bool {
            platforms.map { $0.contains(platform) } ?? true
        }
    }

    struct Target {
        var name: String
        var dependencies: [Dependency]
    }

    var products: [Product] = []
    var targets: [Target] = []
    /// The identities of the packages it depends on.
    var dependencies: [String] = []

    init(dumping directory: URL) throws {
        // A scratch folder of its own: the test run holds the lock on the package's build folder.
        let scratch = FileManager.default.temporaryDirectory.appending(path: "dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dump = Process()
        dump.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        dump.arguments = ["swift", "package", "dump-package", "--package-path", directory.path, "--scratch-path", scratch.path]
        let output = Pipe()
        dump.standardOutput = output
        dump.standardError = FileHandle.nullDevice
        try dump.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        dump.waitUntilExit()
        guard dump.terminationStatus == 0, let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ClosureError.unknown("manifest in \(directory.path)")
        }
        products = (json["products"] as? [[String: Any]] ?? []).compactMap { product in
            (product["name"] as? String).map { Product(name: $0, targets: product["targets"] as? [String] ?? []) }
        }
        targets = (json["targets"] as? [[String: Any]] ?? []).compactMap { target in
            guard let name = target["name"] as? String else { return nil }
            return Target(name: name, dependencies: (target["dependencies"] as? [[String: Any]] ?? []).compactMap(Self.dependency))
        }
        dependencies = (json["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
            ((dependency["sourceControl"] ?? dependency["fileSystem"]) as? [[String: Any]])?.first?["identity"] as? String
        }
    }

    private static func dependency(_ json: [String: Any]) -> Dependency? {
        func platforms(_ condition: Any?) -> [String]? {
            (condition as? [String: Any])?["platformNames"] as? [String]
        }
        if let target = json["target"] as? [Any], let name = target.first as? String {
            return Dependency(kind: .target(name), platforms: platforms(target.last))
        }
        if let byName = json["byName"] as? [Any], let name = byName.first as? String {
            return Dependency(kind: .byName(name), platforms: platforms(byName.last))
        }
        if let product = json["product"] as? [Any], product.count >= 2, let name = product[0] as? String,
            let package = product[1] as? String
        {
            return Dependency(kind: .product(name, package: package), platforms: platforms(product.last))
        }
        return nil
    }
}

enum ClosureError: Error, CustomStringConvertible {
    case unknown(String)

    var description: String {
        switch self {
        case .unknown(let what): "cannot find \(what)"
        }
    }
}
#endif
