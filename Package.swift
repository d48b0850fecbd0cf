// swift-tools-version:6.0
// The todo.txt toolkit: a lossless format library, a file layer, and the `todo` command.
import PackageDescription

let package = Package(
    name: "todo",
    // Observation (TodoStore's @Observable) needs macOS 14, iOS 17, visionOS 1. iOS and visionOS
    // build the libraries only: TodoFileSystem without child processes, TodoTerminal without the
    // terminal session (keys, line editing, display width); the `todo` executable, which spawns
    // processes and drives a terminal, is macOS and Linux only. Only Linux is built and tested here
    // (docs/architecture.md, "Platforms").
    platforms: [.macOS(.v14), .iOS(.v17), .visionOS(.v1)],
    products: [
        // The format library: what an app needs to read, edit and merge todo.txt files.
        .library(name: "TodoTxt", targets: ["TodoTxt"]),
        // The file layer: safe replacement, locks, watching; for apps that edit the file themselves.
        .library(name: "TodoFileSystem", targets: ["TodoFileSystem"]),
        // The terminal for full-screen programs: raw mode, size, keys, line editing, display width.
        .library(name: "TodoTerminal", targets: ["TodoTerminal"]),
        // What a Swift to-do app is built on: an observable, identifiable list of a todo.txt file.
        .library(name: "TodoStore", targets: ["TodoStore"]),
        .executable(name: "todo", targets: ["todo"]),
    ],
    targets: [
        // The format: bytes in, bytes out. No Foundation, no I/O, no clock, no randomness of its own.
        .target(name: "TodoTxt"),
        // All platform code: syscalls, safe replacement, locks, watching.
        // LiveTodoFile reads and edits documents, so this layer knows the format (never commands).
        .target(name: "TodoFileSystem", dependencies: ["TodoTxt", "CTodoSystem"]),
        // The app's model: Foundation and Observation on top of the file layer (docs/store.md).
        .target(name: "TodoStore", dependencies: ["TodoTxt", "TodoFileSystem"]),
        // The controlling terminal: termios, window size, signals, key decoding, display width.
        .target(name: "TodoTerminal"),
        // C library calls that the Glibc module does not import (declared only under _GNU_SOURCE).
        .target(name: "CTodoSystem"),
        // Wires the two together: actions, argument parsing, output.
        .target(name: "TodoCLI", dependencies: ["TodoTxt", "TodoFileSystem", "TodoTerminal"]),
        .executableTarget(name: "todo", dependencies: ["TodoCLI"]),
        // Not products: measurement and fuzzing harnesses.
        // TodoTestSupport: the seeded generator and the pseudo-terminal the `ui` section runs in.
        .executableTarget(name: "TodoBench", dependencies: ["TodoTxt", "TodoFileSystem", "TodoStore", "TodoTestSupport"]),
        .executableTarget(name: "TodoFuzz", dependencies: ["TodoFuzzChecks"]),
        // The fuzz targets' invariant checks, shared by the fuzz binary and the corpus replay test.
        .target(name: "TodoFuzzChecks", dependencies: ["TodoTxt"]),
        // What several test targets (and the benchmark) share: the seeded generator, the printed
        // property seed, the merge-field oracle written from sync.md, a pseudo-terminal and a screen model.
        .target(name: "TodoTestSupport", dependencies: ["TodoTxt", "TodoFileSystem"], path: "Tests/TodoTestSupport"),
        .testTarget(name: "TodoTxtTests", dependencies: ["TodoTxt", "TodoTestSupport"]),
        .testTarget(name: "TodoFileSystemTests", dependencies: ["TodoFileSystem", "TodoTestSupport"]),
        // XCTest only: process-wide measurements that must run with nothing else in the process.
        .testTarget(name: "TodoFileSystemResourceTests", dependencies: ["TodoFileSystem", "TodoTestSupport"]),
        // Public API only, as an app uses it (the article's model code included).
        .testTarget(name: "TodoStoreTests", dependencies: ["TodoStore", "TodoFileSystem", "TodoTestSupport", "todo"]),
        .testTarget(name: "TodoTerminalTests", dependencies: ["TodoTerminal"]),
        .testTarget(name: "TodoCLITests", dependencies: ["TodoCLI", "TodoTxt", "TodoTestSupport"]),
        // Spawns the built `todo` binary (and real git); depends on it so it is built first.
        .testTarget(name: "EndToEndTests", dependencies: ["todo", "TodoTxt", "TodoTestSupport"]),
        // Replays every Fixtures/fuzz/TARGET/ corpus file through that target's checks.
        .testTarget(name: "TodoFuzzChecksTests", dependencies: ["TodoFuzzChecks"]),
    ]
)
