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
        // `from './x.js'`, `import './x.js'` and `import('./x.js')`, with either quote.
        let specifier = /(?<lead>\b(?:from|import)\s*\(?\s*['"])(?<target>\.\.?\/[^'"?#\s]+\.js)(?=['"])/
        return text.replacing(specifier) { match in
            let target = String(match.output.target)
            guard let resolved = resolve(target, from: path), let found = version(resolved) else {
                return String(match.output.0)
            }
            return match.output.lead + target + "?v=" + found
        }
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
