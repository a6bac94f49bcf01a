// Shared by every fuzz target (Fuzz/run compiles it into each).
//
// `precondition` prints no message in optimized builds; these checks always say what went wrong,
// on standard error, before aborting, so libFuzzer's crash report carries the reason.

#if canImport(Glibc)
import Glibc
#endif

/// Aborts with `message` unless `condition` holds.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
           file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fail(message(), file: file, line: line) }
}

/// Aborts with `message`: the input broke a property of the code under test.
func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    let text = Array("\n==== FUZZ CHECK FAILED at \(file):\(line): \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}
