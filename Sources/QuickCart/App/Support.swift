import Foundation

/// Wall-clock time, in one place so handlers agree on it.
enum Clock {
    static func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

/// Lines for the operator, on standard error (unbuffered, safe from any thread).
enum Log {
    static func info(_ message: String) {
        write("quickcart: \(message)\n")
    }

    static func error(_ message: String) {
        write("quickcart: error: \(message)\n")
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

extension StringProtocol {
    /// Whether any character is a control character (a line break, a NUL, an escape...).
    var containsControlCharacter: Bool {
        unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
