import XCTest
final class TodoFileSystemTestsPlaceholder: XCTestCase { func testPlaceholder() { XCTAssertTrue(true) } }
