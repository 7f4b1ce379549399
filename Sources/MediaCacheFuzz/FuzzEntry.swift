// The fuzzing executable. Built by `scripts/fuzz` with libFuzzer (`MEDIACACHE_FUZZING`), it
// is a libFuzzer binary for the target named by the MEDIACACHE_FUZZ_TARGET environment
// variable; built normally, it replays inputs, to reproduce a finding without the fuzzing
// build:
//
//     swift run MediaCacheFuzz playlist Fuzz/regressions/playlist/crash-1234
import Dispatch
import Foundation
import MediaCacheFuzzing

#if MEDIACACHE_FUZZING

/// The target this process fuzzes.
let fuzzedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["MEDIACACHE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        fatalError("set MEDIACACHE_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return target
}()

/// libFuzzer's entry point: checks one input, and traps on a broken law so that libFuzzer
/// saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    if let failure = BlockingCheck.run(fuzzedTarget, input) {
        fatalError("\(fuzzedTarget.rawValue): \(failure)")
    }
    return 0
}

/// Runs an asynchronous check from libFuzzer's synchronous callback, which runs on a thread
/// of its own, never on the cooperative pool.
final class BlockingCheck: @unchecked Sendable {
    /// Written by the task before it signals, read after the wait: the semaphore orders them.
    private var failure: FuzzFailure?
    private let done = DispatchSemaphore(value: 0)

    static func run(_ target: FuzzTarget, _ input: Data) -> FuzzFailure? {
        let check = BlockingCheck()
        Task {
            check.failure = await target.check(input)
            check.done.signal()
        }
        check.done.wait()
        return check.failure
    }
}

#else

@main
enum FuzzReplay {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: MediaCacheFuzz \(names) FILE|DIRECTORY...\n".utf8))
            exit(64)
        }
        var failed = false
        for file in arguments.dropFirst().flatMap(Self.files) {
            guard let input = FileManager.default.contents(atPath: file) else {
                print("\(file): cannot be read")
                failed = true
                continue
            }
            let failure = await target.check(input)
            print("\(file): \(failure.map(\.description) ?? "ok")")
            failed = failed || failure != nil
        }
        exit(failed ? 1 : 0)
    }

    /// `path` itself, or the files in it when it is a directory.
    static func files(_ path: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [path] }
        return names.sorted().map { "\(path)/\($0)" }
    }
}

#endif
