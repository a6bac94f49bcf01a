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
        return versionedImports(withoutComments(content), of: path, version: version)
    }

    // Both passes work on bytes, not on a String's characters: they run for every module at
    // every start (each test's shop included), where a Regex, and then walking Characters,
    // were the largest part of the app's start-up.

    /// `text` with each relative import specifier that names a served file given that file's
    /// version. Specifiers of no served file, or of one in a cycle of imports (whose version is
    /// not known yet), stay as they are.
    static func versionedImports(_ bytes: [UInt8], of path: String, version: (String) -> String?) -> [UInt8] {
        // `from './x.js'`, `import './x.js'` and `import('./x.js')`, with either quote.
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
        return output
    }

    /// Whether a specifier ends at `byte`: a quote, `?`, `#` or white space.
    private static func specifierStops(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "?")
            || byte == UInt8(ascii: "#") || isSpace(byte)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    private static let importKeywords: [[UInt8]] = [Array("from".utf8), Array("import".utf8)]

    /// Whether the word `from` or `import` (then white space, an optional `(` and white space)
    /// stands right before the quote at `quote`.
    private static func follows(importKeywordIn bytes: [UInt8], before quote: Int) -> Bool {
        var end = quote
        while end > 0, isSpace(bytes[end - 1]) { end -= 1 }
        if end > 0, bytes[end - 1] == UInt8(ascii: "(") {
            end -= 1
            while end > 0, isSpace(bytes[end - 1]) { end -= 1 }
        }
        for word in importKeywords {
            let start = end - word.count
            guard start >= 0, bytes[start..<end].elementsEqual(word) else { continue }
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
    static func withoutComments(_ text: [UInt8]) -> [UInt8] {
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var inTemplate = false
        var lineStart = 0
        while lineStart <= text.count {
            var lineEnd = lineStart
            while lineEnd < text.count, text[lineEnd] != newline { lineEnd += 1 }
            if lineStart > 0 { output.append(newline) }
            defer { lineStart = lineEnd + 1 }
            if inTemplate {
                output += text[lineStart..<lineEnd]
                inTemplate = !isOdd(backticksIn: text, lineStart..<lineEnd)
                continue
            }
            var first = lineStart
            while first < lineEnd, text[first] == space || text[first] == tab { first += 1 }
            let length = lineEnd - first
            if length >= 2, text[first] == slash,
               text[first + 1] == slash || (text[first + 1] == star && text[lineEnd - 2] == star && text[lineEnd - 1] == slash) {
                continue
            }
            var codeEnd = lineEnd
            if let comment = firstTrailingComment(in: text, lineStart..<lineEnd) {
                codeEnd = comment
                while codeEnd > lineStart, text[codeEnd - 1] == space { codeEnd -= 1 }
            }
            output += text[lineStart..<codeEnd]
            inTemplate = isOdd(backticksIn: text, lineStart..<codeEnd)
        }
        return output
    }

    /// Where ` //` starts in `line` of `text`, when no quote, backtick or slash comes before it.
    private static func firstTrailingComment(in text: [UInt8], _ line: Range<Int>) -> Int? {
        var index = line.lowerBound
        while index + 2 < line.upperBound {
            switch text[index] {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "/"): return nil
            case UInt8(ascii: " ") where text[index + 1] == UInt8(ascii: "/") && text[index + 2] == UInt8(ascii: "/"): return index
            default: index += 1
            }
        }
        return nil
    }

    private static func isOdd(backticksIn text: [UInt8], _ range: Range<Int>) -> Bool {
        var odd = false
        for index in range where text[index] == UInt8(ascii: "`") { odd.toggle() }
        return odd
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
