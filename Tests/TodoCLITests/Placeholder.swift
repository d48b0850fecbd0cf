import XCTest
final class TodoCLITestsPlaceholder: XCTestCase { func testPlaceholder() { XCTAssertTrue(true) } }
