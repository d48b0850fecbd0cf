import Foundation
import Testing
import TodoStore
import TodoTestSupport

/// A store toggling and adding at random while a shell appends with `echo >>` (no lock) and
/// `todo sort` rewrites the file: every line is kept exactly once, and once all is quiet `tasks`
/// is the file. Runs only with `TODO_SOAK_SECONDS` set (the seconds of writing; seed printed).
@MainActor struct StoreSoakTests {
    nonisolated static let seconds = ProcessInfo.processInfo.environment["TODO_SOAK_SECONDS"].flatMap(Double.init) ?? 0

    @Test(.enabled(if: seconds > 0), .timeLimit(.minutes(5))) func everyLineKeptExactlyOnceUnderConcurrentWriters() async throws {
        let directory = TemporaryDirectory("store-soak")
        let path = directory.file("todo.txt")
        writeFile(path, "")
        var random = SplitMix64(seed: propertySeed())
        let store = try TodoStore(path: path)
        let following = Task { await store.follow() }
        defer { following.cancel() }
        let todo = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path + "/todo"
        let deadline = ContinuousClock.now + .seconds(Self.seconds)
        let shell = Task.detached { () -> Int in
            var appended = 0
            while ContinuousClock.now < deadline {
                _ = Subprocess.run(["/bin/sh", "-c", "echo \"shell \(appended) +soak\" >> '\(path)'"])
                appended += 1
                if appended % 5 == 0 {
                    _ = Subprocess.run([todo, "-d", "/dev/null", "sort"], extraEnvironment: ["TODO_FILE": path, "TODO_DIR": directory.path])
                }
            }
            return appended
        }
        var added = 0, gone = 0, toggled = 0
        while ContinuousClock.now < deadline {
            if store.tasks.isEmpty || random.next() % 3 == 0 {
                try await store.add("store \(added)")
                added += 1
            } else {
                let task = store.tasks[Int(random.next() % UInt64(store.tasks.count))]
                do {
                    try await store.toggle(task)
                    toggled += 1
                } catch {
                    guard case .taskGone = error else { throw error }
                    gone += 1
                }
            }
        }
        let appended = await shell.value
        let text = try #require(readFile(path))
        let lines = text.split(separator: "\n").map(String.init)
        for marker in (0..<added).map({ "store \($0)" }) + (0..<appended).map({ "shell \($0) +soak" }) {
            let holders = lines.filter { $0.hasSuffix(" " + marker) || $0 == marker || $0.contains(" " + marker + " uid:") || $0.hasPrefix(marker + " ") }
            #expect(holders.count == 1, "\(marker): \(holders.count) lines")
        }
        #expect(lines.count == added + appended)
        // Up to 1,500 chances 20 ms apart for the last change to arrive (see LiveStoreTests.eventually).
        for _ in 0..<1_500 where Set(store.tasks.map(\.rawLine)) != Set(lines) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(Set(store.tasks.map(\.rawLine)) == Set(lines) && store.tasks.count == lines.count)
        print("soak: \(added) added, \(toggled) toggled, \(appended) appended, \(gone) toggles of a task gone meanwhile")
    }
}
