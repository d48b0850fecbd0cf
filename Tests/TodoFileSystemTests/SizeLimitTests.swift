import Testing
@testable import TodoFileSystem

/// `TODO_MAX_FILE_SIZE`: bytes, or K, M, G (powers of 1024); everything else is not a size.
@Suite struct SizeLimitTests {
    @Test func bytesAndSuffixesAreSizes() {
        #expect(FileSystem.parseSizeLimit("1048576") == Int64(1_048_576))
        #expect(FileSystem.parseSizeLimit("512K") == Int64(524_288))
        #expect(FileSystem.parseSizeLimit("3m") == Int64(3_145_728))
        #expect(FileSystem.parseSizeLimit("2G") == Int64(2_147_483_648))
        #expect(FileSystem.parseSizeLimit("1g") == FileSystem.defaultSizeLimit)
    }

    @Test func anythingElseIsNotASize() {
        for text in ["", "G", "2X", "1.5G", "0", "0K", "-1", "+5", " 5", "5 ", "2GB", "١٢", "99999999999999999999", "9000000000G"] {
            #expect(FileSystem.parseSizeLimit(text) == nil, "\(text)")
        }
    }
}
