/// The page script's ES modules (`Public/js/*.js`) as ``StaticFiles`` serves them: without
/// their comments, and with relative imports at versioned addresses.
///
/// - Versioned imports: `import { start } from './forms.js'` is served as
///   `from './forms.js?v=VERSION'`. Versioned addresses are cached for a year, so a plain
///   relative import could load an older copy a browser still holds; with this a page's entry
///   module names one release's modules only. A module's version is that of its served text,
///   so an importer's version changes whenever one of its imports' does.
/// - Comments: the modules explain themselves at length, and nine small files compress worse
///   than one large one; served without comments they cost no more bytes than the single
///   script did. Lines stay where they are (a comment line becomes empty), so an error's line
///   number is the source's.
enum ScriptModules {
    /// A ``StaticFiles/Rewrite``: `content` of the file at `path`, rewritten when it is one of the
    /// page script's modules (`js/*.js`); any other file, the service worker included, as it is.
    static func rewrite(path: String, content: [UInt8], version: (String) -> String?) -> [UInt8] {
        guard path.hasPrefix("js/"), path.hasSuffix(".js") else { return content }
        let text = withoutComments(String(decoding: content, as: UTF8.self))
        return Array(versionedImports(text, of: path, version: version).utf8)
    }

    /// `text` with each relative import specifier that names a served file given that file's
    /// version. Specifiers of no served file, or of one in a cycle of imports (whose version is
    /// not known yet), stay as they are.
    static func versionedImports(_ text: String, of path: String, version: (String) -> String?) -> String {
        // `from './x.js'`, `import './x.js'` and `import('./x.js')`, with either quote. Scanned
        // byte by byte, not with a Regex: this runs for every module at every start, where a
        // Regex was the largest part of the app's start-up.
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        var copied = 0
        var index = 0
        while index < bytes.count {
            let quote = bytes[index]
            guard quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\""),
                  follows(importKeywordIn: bytes, before: index) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, !specifierStops(bytes[end]) { end += 1 }
            let target = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            guard end < bytes.count, bytes[end] == quote, target.hasPrefix("./") || target.hasPrefix("../"),
                  target.hasSuffix(".js"), let resolved = resolve(target, from: path), let found = version(resolved)
            else {
                index += 1
                continue
            }
            output += bytes[copied..<end]
            output += Array(("?v=" + found).utf8)
            copied = end
            index = end + 1
        }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether a specifier ends at `byte`: a quote, `?`, `#` or white space.
    private static func specifierStops(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "?")
            || byte == UInt8(ascii: "#") || isSpace(byte)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// Whether the word `from` or `import` (then white space, an optional `(` and white space)
    /// stands right before the quote at `quote`.
    private static func follows(importKeywordIn bytes: [UInt8], before quote: Int) -> Bool {
        var end = quote
        while end > 0, isSpace(bytes[end - 1]) { end -= 1 }
        if end > 0, bytes[end - 1] == UInt8(ascii: "(") {
            end -= 1
            while end > 0, isSpace(bytes[end - 1]) { end -= 1 }
        }
        for keyword in ["from", "import"] {
            let word = Array(keyword.utf8)
            let start = end - word.count
            guard start >= 0, Array(bytes[start..<end]) == word else { continue }
            if start == 0 { return true }
            let before = bytes[start - 1]
            let isWordByte = before == UInt8(ascii: "_") || before == UInt8(ascii: "$") || before >= 0x80
                || (before >= UInt8(ascii: "0") && before <= UInt8(ascii: "9"))
                || (before | 0x20 >= UInt8(ascii: "a") && before | 0x20 <= UInt8(ascii: "z"))
            return !isWordByte
        }
        return false
    }

    /// `text` without its comments, as the modules write them: a line that is a comment (`//`,
    /// or a one-line `/* */`) becomes empty, and a comment after code goes when the code before
    /// it has no quote, backtick or slash (so the `//` cannot be inside a string or a regular
    /// expression). Lines inside a template literal that spans lines are left alone.
    static func withoutComments(_ text: String) -> String {
        var inTemplate = false
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if inTemplate {
                lines.append(line)
                inTemplate = !isOdd(backticksIn: line)
                continue
            }
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix("//") || (trimmed.hasPrefix("/*") && trimmed.hasSuffix("*/")) {
                lines.append("")
                continue
            }
            var code = line
            if let comment = line.firstRange(of: " //"), !line[..<comment.lowerBound].contains(where: "'\"`/".contains) {
                code = line[..<comment.lowerBound]
                while code.last == " " { code.removeLast() }
            }
            lines.append(code)
            inTemplate = isOdd(backticksIn: code)
        }
        return lines.joined(separator: "\n")
    }

    private static func isOdd(backticksIn line: Substring) -> Bool {
        line.reduce(false) { odd, character in character == "`" ? !odd : odd }
    }

    /// The served path `specifier` names, relative to the module at `path`; `nil` when it
    /// climbs out of the served folder.
    static func resolve(_ specifier: String, from path: String) -> String? {
        var parts = path.split(separator: "/").dropLast().map(String.init)
        for part in specifier.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }
}
