import XCTest
final class TodoTxtTestsPlaceholder: XCTestCase { func testPlaceholder() { XCTAssertTrue(true) } }
