#if !canImport(AVFoundation)
import Foundation

/// A Swift source file compiled apart from the package against the modules this test run
/// built (the shim and the adapter among them), in Swift 6 mode with warnings as errors, as an
/// app compiles against Apple's SDK.
///
/// It is compiled to SIL, not only type-checked: Swift reports sending a non-Sendable value
/// across actors (region isolation) from its SIL passes, which `-typecheck` never runs.
struct SwiftSnippet {
    let source: String

    init(_ source: String) {
        self.source = source
    }

    /// The compiler's error lines; empty when the snippet compiles.
    func errors() throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appending(path: "snippet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "Snippet.swift")
        try Data(source.utf8).write(to: file)
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments =
            [
                "swiftc", "-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-warnings-as-errors",
                "-module-name", "Snippet", "-parse-as-library",
            ] + (try Self.searchPaths()) + [file.path]
        let output = Pipe()
        compiler.standardOutput = output
        compiler.standardError = output
        try compiler.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        compiler.waitUntilExit()
        let errors = text.split(separator: "\n").map(String.init).filter { $0.contains("error:") }
        if compiler.terminationStatus != 0, errors.isEmpty { throw SnippetError.compilerFailed(text) }
        return errors
    }

    /// The flags that find the built modules: the build folder's `Modules`, and the C modules'
    /// maps and headers as SwiftPM passed them to this test target's compiler.
    private static func searchPaths() throws -> [String] {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        // <build path>/<triple>/debug/MediaCachePackageTests.xctest
        let products = executable.deletingLastPathComponent()
        let manifest = products.deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: products.lastPathComponent + ".yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        guard let command = text.range(of: "\"C.MediaCacheAVFoundationTests-"),
            let argsStart = text.range(of: "args: [", range: command.upperBound..<text.endIndex),
            let argsEnd = text.range(of: "]\n", range: argsStart.upperBound..<text.endIndex)
        else {
            throw SnippetError.noCompileCommand(manifest.path)
        }
        let arguments = try JSONDecoder().decode(
            [String].self, from: Data(("[" + text[argsStart.upperBound..<argsEnd.lowerBound] + "]").utf8))
        var paths = ["-I", products.appending(path: "Modules").path]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            if arguments[index] == "-Xcc", index + 1 < arguments.endIndex {
                paths += ["-Xcc", arguments[index + 1]]
                index += 2
            } else {
                index += 1
            }
        }
        return paths
    }
}

enum SnippetError: Error, CustomStringConvertible {
    case noCompileCommand(String)
    case compilerFailed(String)

    var description: String {
        switch self {
        case .noCompileCommand(let manifest): "\(manifest) has no compile command for MediaCacheAVFoundationTests"
        case .compilerFailed(let output): "swiftc failed without an error line: \(output)"
        }
    }
}
#endif
