import Testing
@testable import TodoFileSystem

/// The process environment, read through `ctodo_environment` (Darwin's headers do not declare
/// `environ`): every variable once, with the value `getenv` gives.
@Suite struct ProcessContextTests {
    @Test func theEnvironmentAgreesWithGetenvVariableByVariable() {
        let environment = ProcessContext.environment()
        // `swift test` always runs with PATH set (the toolchain is found through it).
        #expect(environment["PATH"] != nil)
        for (name, value) in environment {
            #expect(ProcessContext.environmentValue(name) == value, "\(name)")
        }
    }
}
